-- MFA (issue 4): the TOTP secret lives sealed in users.users.mfa_totp_sealed
-- (on once mfa_enabled_at is set). Recovery codes work once each and are
-- stored only as HMAC-SHA256 (keyed by the service key).
CREATE TABLE users.mfa_recovery_codes (
  user_id    text NOT NULL REFERENCES users.users (id) ON DELETE CASCADE,
  code_mac   text NOT NULL,
  used_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, code_mac)
);
