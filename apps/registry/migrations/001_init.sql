-- Registry schema: clients (applications and operator clients), their entry
-- points, the operator catalogs and the audit log.

-- Applications keep their whole validated document (defaults filled in) as
-- jsonb; the columns beside it are what lookups and the token server need.
CREATE TABLE registry.clients (
  client_id        text PRIMARY KEY,
  kind             text NOT NULL CHECK (kind IN ('application', 'operator')),
  display_name     text NOT NULL,
  document         jsonb,
  redirect_uris    text[] NOT NULL DEFAULT '{}',
  -- context.url whitelist; starts as the redirect URIs (contract section 5).
  whitelist        text[] NOT NULL DEFAULT '{}',
  default_callback text,
  mfa              text NOT NULL DEFAULT 'off' CHECK (mfa IN ('off', 'optional', 'required')),
  -- AES-256-GCM of the secret (revealable by an operator) and its keyed MAC
  -- (constant-time verification without a password hash).
  secret_sealed    text NOT NULL,
  secret_mac       text NOT NULL,
  secret_version   integer NOT NULL DEFAULT 1,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  CHECK (kind = 'operator' OR document IS NOT NULL)
);

CREATE TABLE registry.entrypoints (
  id         text PRIMARY KEY,
  client_id  text NOT NULL REFERENCES registry.clients (client_id) ON DELETE CASCADE,
  position   integer NOT NULL,
  document   jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (client_id, position)
);

-- Operator-managed catalogs that applications reference by key.
CREATE TABLE registry.catalog_entries (
  kind         text NOT NULL CHECK (kind IN ('organization', 'brand', 'property', 'typology', 'data_field')),
  key          text NOT NULL,
  display_name text NOT NULL,
  -- Data fields only: the type of the value ("string", "date").
  value_type   text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, key),
  CHECK ((kind = 'data_field') = (value_type IS NOT NULL))
);

INSERT INTO registry.catalog_entries (kind, key, display_name, value_type) VALUES
  ('organization', 'default', 'Default organisation', NULL),
  ('brand', 'default', 'Default brand', NULL),
  ('property', 'default', 'Default property', NULL),
  ('typology', 'consumer', 'Consumer', NULL),
  ('data_field', 'name', 'Name', 'string'),
  ('data_field', 'surname', 'Surname', 'string'),
  ('data_field', 'second_surname', 'Second surname', 'string'),
  ('data_field', 'birthday', 'Birthday (YYYY-MM-DD)', 'date'),
  ('data_field', 'gender', 'Gender', 'string'),
  ('data_field', 'nickname', 'Nickname', 'string'),
  ('data_field', 'locale', 'Locale', 'string'),
  ('data_field', 'country', 'Country', 'string'),
  ('data_field', 'postal_code', 'Postal code', 'string');

CREATE TABLE registry.audit_log (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at         timestamptz NOT NULL DEFAULT now(),
  actor      text NOT NULL,
  action     text NOT NULL,
  target     text NOT NULL,
  reason     text NOT NULL DEFAULT '',
  metadata   jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_target_idx ON registry.audit_log (target, at);
