-- Issue 26: passkeys (WebAuthn credentials, contract section 12). One row per
-- credential a user enrolled; the credential id and public key come from the
-- authenticator (attestation `none`), the counter and backup flags are kept
-- up to date at each sign-in. Erasure deletes the rows (PasskeyStore.erase).
CREATE TABLE users.passkeys (
  -- Our id of the passkey (the API's `id`): 24 hex chars from the CSPRNG.
  id            text PRIMARY KEY,
  user_id       text NOT NULL REFERENCES users.users (id),
  -- The authenticator's credential id, base64url: what a sign-in names.
  credential_id text NOT NULL UNIQUE,
  -- COSE public key as the authenticator sent it.
  public_key    bytea NOT NULL,
  -- Signature counter (0 for authenticators that keep none); never goes back.
  counter       bigint NOT NULL DEFAULT 0,
  -- singleDevice or multiDevice (backup eligible), and whether it is backed up now.
  device_type   text NOT NULL,
  backed_up     boolean NOT NULL,
  transports    text[] NOT NULL DEFAULT '{}',
  name          text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz
);
CREATE INDEX passkeys_user ON users.passkeys (user_id, created_at);
