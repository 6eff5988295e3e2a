-- Issue 11: code sign-in and assisted registration.

-- One-time sign-in codes (code sign-in), stored only as HMAC-SHA256 keyed by
-- the service key, like confirmation codes: 6 digits, 10 minutes, 5 tries,
-- one use. Each guess spends a try of every live code of the identifier.
CREATE TABLE users.access_codes (
  id            text PRIMARY KEY,
  user_id       text NOT NULL REFERENCES users.users (id) ON DELETE CASCADE,
  key           text NOT NULL CHECK (key IN ('email', 'phone_number')),
  -- The confirmed value the code was sent to.
  value         text NOT NULL,
  code_hash     text NOT NULL,
  client_id     text,
  entrypoint_id text,
  expires_at    timestamptz NOT NULL,
  attempts      integer NOT NULL DEFAULT 0,
  used_at       timestamptz,
  -- Set when a sibling code of the same identifier was used.
  superseded_at timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX access_codes_live ON users.access_codes (user_id, key, created_at DESC)
  WHERE used_at IS NULL AND superseded_at IS NULL;

-- Activation links of users registered through an assisted entry point: the
-- token (HMAC only) sets the password and confirms the identifier it was sent to.
CREATE TABLE users.activations (
  id            text PRIMARY KEY,
  user_id       text NOT NULL REFERENCES users.users (id) ON DELETE CASCADE,
  key           text NOT NULL CHECK (key IN ('email', 'phone_number')),
  value         text NOT NULL,
  token_hash    text NOT NULL UNIQUE,
  client_id     text NOT NULL,
  entrypoint_id text NOT NULL,
  expires_at    timestamptz NOT NULL,
  used_at       timestamptz,
  superseded_at timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX activations_user ON users.activations (user_id, created_at DESC);

-- Registered by an application on the user's behalf and not activated yet:
-- every login answers 412 until the activation link is used.
ALTER TABLE users.users ADD COLUMN awaiting_activation boolean NOT NULL DEFAULT false;
