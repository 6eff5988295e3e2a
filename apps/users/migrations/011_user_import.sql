-- Issue 28 (contract section 15): bulk imports of users. A job counts its
-- lines as batches commit; the lines that were skipped (an id value already
-- taken) or failed are kept with their line number for the operator.
CREATE TABLE users.import_jobs (
  id             text PRIMARY KEY,
  entrypoint_id  text NOT NULL,
  client_id      text NOT NULL,
  actor          text NOT NULL,
  status         text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done')),
  -- Lines read so far (the next batch starts after it).
  lines          integer NOT NULL DEFAULT 0,
  imported       integer NOT NULL DEFAULT 0,
  skipped        integer NOT NULL DEFAULT 0,
  failed         integer NOT NULL DEFAULT 0,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  finished_at    timestamptz
);

CREATE TABLE users.import_results (
  job_id   text NOT NULL REFERENCES users.import_jobs (id) ON DELETE CASCADE,
  line     integer NOT NULL,
  outcome  text NOT NULL CHECK (outcome IN ('skipped', 'failed')),
  code     text NOT NULL,
  field    text NOT NULL DEFAULT '',
  -- skipped: the user who holds the id value.
  user_id  text,
  PRIMARY KEY (job_id, line)
);

-- Answers to legal assertions that came with an imported user.
ALTER TABLE users.assertion_acceptances DROP CONSTRAINT IF EXISTS assertion_acceptances_via_check;
ALTER TABLE users.assertion_acceptances
  ADD CONSTRAINT assertion_acceptances_via_check CHECK (via IN ('register', 'login', 'update', 'page', 'import'));
