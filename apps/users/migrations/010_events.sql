-- Events outbox (contract section 14, issue 27): each event is written in the
-- transaction of the change it reports, so an answered change is never
-- without its event, across kill -9. The relay hands unrelayed rows to the
-- registry (which owns the webhooks) and marks them; the registry ignores an
-- event id it already has, so a relay that dies between the two repeats
-- nothing. Rows carry ids and changed field names only, never a secret.
CREATE TABLE users.events (
  seq         bigserial PRIMARY KEY,
  id          text NOT NULL UNIQUE,
  type        text NOT NULL,
  application text,
  data        jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  relayed_at  timestamptz
);
CREATE INDEX events_unrelayed ON users.events (seq) WHERE relayed_at IS NULL;
