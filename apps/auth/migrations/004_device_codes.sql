-- Device authorization grant (RFC 8628, issue 29). One row per device
-- authorization: both codes stored only as keyed hashes. status moves
-- pending -> approved | denied, and approved -> issued exactly once (the
-- poll that issues tokens claims the row with a conditional UPDATE).
-- A row is kept 10 minutes past expires_at so that a late poll answers
-- expired_token instead of invalid_grant; then it is deleted.
CREATE TABLE auth.device_codes (
  device_hash    text PRIMARY KEY,
  user_code_hash text NOT NULL UNIQUE,
  client_id      text NOT NULL,
  application_id text NOT NULL,
  entrypoint_id  text NOT NULL DEFAULT '',
  source_id      text NOT NULL DEFAULT '',
  scope          text NOT NULL,
  status         text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied', 'issued')),
  -- Who signed in on the /device page (set before the decision), when, and the session id the redemption named.
  user_id        text,
  auth_time      bigint,
  sid            text,
  interval_s     integer NOT NULL,
  last_poll_at   timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL
);
CREATE INDEX device_codes_expires_at ON auth.device_codes (expires_at);
