-- Token signing keys. The private JWK is sealed (AES-256-GCM under a key
-- derived from SECRET_KEY, the kid as associated data), never stored in clear.
CREATE TABLE auth.signing_keys (
  kid            text PRIMARY KEY,            -- RFC 7638 thumbprint of the public JWK
  alg            text NOT NULL CHECK (alg IN ('EdDSA', 'ES256')),
  public_jwk     jsonb NOT NULL,
  private_sealed text NOT NULL,
  status         text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'retired')),
  created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX signing_keys_active_by_alg ON auth.signing_keys (alg, created_at DESC) WHERE status = 'active';
