-- Users schema: accounts, their identifiers (one user per value) and the
-- confirmation codes of identifiers that must be proven.

CREATE TABLE users.users (
  -- object_id of the public API: 24 hex chars from the CSPRNG.
  id                    text PRIMARY KEY,
  -- A second opaque id (pulse_id of the public API).
  pulse_id              text NOT NULL UNIQUE,
  -- PHC string (argon2id); NULL for passwordless users.
  password_hash         text,
  datas                 jsonb NOT NULL DEFAULT '{}',
  addresses             jsonb NOT NULL DEFAULT '{}',
  assertions            jsonb NOT NULL DEFAULT '{}',
  -- Where the user registered (policies, admin console).
  registered_client_id  text,
  registered_entrypoint text,
  -- Room for issue 4 (lock, MFA, deletion); not used yet.
  locked_at             timestamptz,
  mfa_totp_sealed       text,
  mfa_enabled_at        timestamptz,
  deleted_at            timestamptz,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  version               integer NOT NULL DEFAULT 1
);

-- One row per identifier key of a user. `value` is the active value in
-- canonical form (lower-case trimmed email, E.164 phone); the unique
-- constraint makes "one user per value" hold under concurrent registrations.
CREATE TABLE users.identifiers (
  user_id              text NOT NULL REFERENCES users.users (id) ON DELETE CASCADE,
  key                  text NOT NULL CHECK (key IN ('email', 'phone_number', 'national_id', 'screen_name')),
  value                text NOT NULL,
  confirmed            boolean NOT NULL DEFAULT false,
  confirmed_at         timestamptz,
  -- A replacement awaiting confirmation; the active value stays until then.
  pending_value        text,
  pending_requested_at timestamptz,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key),
  CONSTRAINT identifiers_key_value_unique UNIQUE (key, value)
);

-- Confirmation codes and link tokens, stored only as HMAC-SHA256 (keyed by
-- the service key): a database leak does not reveal live codes.
CREATE TABLE users.confirmations (
  id              text PRIMARY KEY,
  user_id         text NOT NULL REFERENCES users.users (id) ON DELETE CASCADE,
  key             text NOT NULL CHECK (key IN ('email', 'phone_number')),
  -- The value being confirmed (the active value or a pending replacement).
  value           text NOT NULL,
  purpose         text NOT NULL CHECK (purpose IN ('register', 'change', 'resend')),
  code_hash       text NOT NULL,
  link_token_hash text NOT NULL UNIQUE,
  -- Where to send the user after a link confirmation (patch context.url).
  context_url     text,
  client_id       text,
  entrypoint_id   text,
  expires_at      timestamptz NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  used_at         timestamptz,
  -- Set when a newer code for the same identifier replaces this one.
  superseded_at   timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX confirmations_live ON users.confirmations (user_id, key, created_at DESC)
  WHERE used_at IS NULL AND superseded_at IS NULL;
