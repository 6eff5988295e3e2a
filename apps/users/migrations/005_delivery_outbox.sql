-- The in-process delivery queue of the embedded default (no REDIS_URL), kept
-- in the database (issue 15): a job is written in the same transaction as the
-- change it confirms and deleted once sent or dropped, so `kill -9` loses
-- nothing; the next start drains what is left. With REDIS_URL (BullMQ) this
-- table stays empty.
CREATE TABLE users.delivery_outbox (
  delivery_id   text PRIMARY KEY,
  -- The ConfirmationJob: ids in clear, the code and link token sealed.
  job           jsonb NOT NULL,
  enqueued_at   timestamptz NOT NULL,
  attempts_made integer NOT NULL DEFAULT 0,
  -- Set when the last attempt failed for good (a dead letter, kept 14 days).
  failed_at     timestamptz,
  last_error    text
);
CREATE INDEX delivery_outbox_pending ON users.delivery_outbox (enqueued_at) WHERE failed_at IS NULL;
