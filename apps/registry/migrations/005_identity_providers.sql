-- Upstream identity providers (contract section 11, issue 25).
-- The client secret is sealed (AES-256-GCM, key "idp-client-secret" derived
-- from SECRET_KEY, bound to the provider's key) and never returned.
CREATE TABLE registry.identity_providers (
  key text PRIMARY KEY,
  display_name text NOT NULL,
  type text NOT NULL CHECK (type IN ('oidc', 'oauth2')),
  preset text NOT NULL DEFAULT '',
  issuer text NOT NULL DEFAULT '',
  client_id text NOT NULL,
  secret_sealed text NOT NULL,
  scopes text[] NOT NULL,
  trust_email boolean NOT NULL DEFAULT false,
  authorization_endpoint text NOT NULL DEFAULT '',
  token_endpoint text NOT NULL DEFAULT '',
  userinfo_endpoint text NOT NULL DEFAULT '',
  claims jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
