-- Admin API (issue 12).

-- When a session was last opened for the user (admin view).
ALTER TABLE users.users ADD COLUMN last_login_at timestamptz;

-- Search by prefix of object_id, pulse_id and identifier values (LIKE 'x%'
-- uses these whatever the database collation).
CREATE INDEX users_id_prefix ON users.users (id text_pattern_ops);
CREATE INDEX users_pulse_id_prefix ON users.users (pulse_id text_pattern_ops);
CREATE INDEX identifiers_value_prefix ON users.identifiers (key, value text_pattern_ops);

-- The users service's audit log: operators' actions on users (lock, unlock,
-- log out, export, erasure), written in the same transaction as the change.
-- Entries name users by id only, never by their personal data. Append-only
-- in the database itself: no UPDATE, DELETE or TRUNCATE, whatever the caller.
CREATE TABLE users.audit_log (
  id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at      timestamptz NOT NULL DEFAULT now(),
  actor   text NOT NULL,
  action  text NOT NULL,
  target  text NOT NULL,
  address text NOT NULL DEFAULT '',
  details jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_newest ON users.audit_log (at DESC, id DESC);
CREATE INDEX audit_log_target_idx ON users.audit_log (target, at);

CREATE FUNCTION users.audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'users.audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON users.audit_log
  FOR EACH ROW EXECUTE FUNCTION users.audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON users.audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION users.audit_log_append_only();
