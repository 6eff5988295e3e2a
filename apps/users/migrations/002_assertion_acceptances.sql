-- Every answer a user gave to a legal assertion (accepted or declined), with
-- the version answered, when, through which application and device, and by
-- which route. users.users.assertions keeps the latest answer of each key.
CREATE TABLE users.assertion_acceptances (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     text NOT NULL REFERENCES users.users (id) ON DELETE CASCADE,
  key         text NOT NULL,
  version     text NOT NULL,
  value       boolean NOT NULL,
  -- The application (client_id) and source.id (device kind) of the request.
  client_id   text NOT NULL,
  source_id   text NOT NULL,
  via         text NOT NULL CHECK (via IN ('register', 'login', 'update', 'page')),
  answered_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX assertion_acceptances_user ON users.assertion_acceptances (user_id, key, answered_at DESC);
