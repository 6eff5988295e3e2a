-- Auth schema: the token signing keys. Private keys are sealed with a key
-- derived from SECRET_KEY (AES-256-GCM, the kid as associated data).
CREATE TABLE auth.signing_keys (
  kid            text PRIMARY KEY,
  alg            text NOT NULL CHECK (alg IN ('EdDSA', 'ES256')),
  public_jwk     jsonb NOT NULL,
  private_sealed text NOT NULL,
  status         text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'retired')),
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX signing_keys_status ON auth.signing_keys (status, created_at DESC);
