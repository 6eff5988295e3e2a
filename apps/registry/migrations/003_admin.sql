-- Admin API (issue 12).

-- Audit log: the client address of each request, details as JSON (the old
-- free-text reason folds into them), listed newest first, and append-only in
-- the database itself: no UPDATE, DELETE or TRUNCATE, whatever the caller.
ALTER TABLE registry.audit_log ADD COLUMN address text NOT NULL DEFAULT '';
UPDATE registry.audit_log SET metadata = metadata || jsonb_build_object('reason', reason) WHERE reason <> '';
ALTER TABLE registry.audit_log RENAME COLUMN metadata TO details;
ALTER TABLE registry.audit_log DROP COLUMN reason;
CREATE INDEX audit_log_newest ON registry.audit_log (at DESC, id DESC);

CREATE FUNCTION registry.audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'registry.audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON registry.audit_log
  FOR EACH ROW EXECUTE FUNCTION registry.audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON registry.audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION registry.audit_log_append_only();

-- Data fields carry a format (contract section 6); "string" becomes "text".
UPDATE registry.catalog_entries SET value_type = 'text' WHERE value_type = 'string';
ALTER TABLE registry.catalog_entries
  ADD CONSTRAINT catalog_entries_format CHECK (value_type IN ('text', 'date', 'email', 'phone', 'number', 'boolean')),
  ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
