-- Events and webhooks (contract section 14, issue 27).

-- Every event: the registry's own (written in the transaction of the change)
-- and the users service's (relayed from its outbox; a repeated id is ignored).
CREATE TABLE registry.events (
  id          text PRIMARY KEY,
  type        text NOT NULL,
  application text,
  -- The body sent: {"id", "type", "time", "application", "data"}.
  body        jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_created ON registry.events (created_at);

-- Endpoints. The signing secret is sealed with the key ring (bound to the id);
-- during a rotation the previous one keeps signing beside it until
-- previous_until.
CREATE TABLE registry.webhooks (
  id              text PRIMARY KEY,
  url             text NOT NULL,
  events          text[] NOT NULL,
  application     text,
  description     text NOT NULL DEFAULT '',
  enabled         boolean NOT NULL DEFAULT true,
  -- Why the endpoint was switched off by the delivery worker ("gone": a 410).
  disabled_reason text,
  secret_sealed   text NOT NULL,
  previous_sealed text,
  previous_until  timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);

-- One delivery per event and endpoint: the queue and its log. The worker
-- claims due rows with a lease (FOR UPDATE SKIP LOCKED: replicas share the
-- work); a process killed mid-attempt leaves a lease that lapses.
CREATE TABLE registry.webhook_deliveries (
  id                 text PRIMARY KEY,
  webhook_id         text NOT NULL REFERENCES registry.webhooks (id) ON DELETE CASCADE,
  event_id           text NOT NULL REFERENCES registry.events (id),
  event_type         text NOT NULL,
  -- pending (waiting for its next try), delivered, failed (gave up or endpoint gone).
  status             text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts           integer NOT NULL DEFAULT 0,
  last_response_code integer,
  last_error         text,
  next_attempt_at    timestamptz,
  -- The retry window (24 h) counts from the first attempt.
  first_attempt_at   timestamptz,
  lease_until        timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  UNIQUE (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON registry.webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_newest ON registry.webhook_deliveries (webhook_id, created_at DESC, id DESC);
