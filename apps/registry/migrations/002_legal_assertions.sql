-- Legal assertions (terms, privacy, consents) with their versions. Each
-- publication is a new row; the latest of a key (highest id) is current.
-- Rows are never updated: what a user accepted stays readable.
CREATE TABLE registry.legal_assertions (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key          text NOT NULL,
  version      text NOT NULL,
  -- {"en": "...", "es": "..."}: the text shown to the user by language.
  display_name jsonb NOT NULL,
  type         text NOT NULL,
  typology     text NOT NULL,
  property     text NOT NULL,
  mandatory    boolean NOT NULL,
  published_by text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT legal_assertions_key_version_unique UNIQUE (key, version)
);
CREATE INDEX legal_assertions_latest ON registry.legal_assertions (key, id DESC);
