-- Signing keys: RS256 besides ES256 and EdDSA, and rotation. A key is
-- 'next' (published in the JWKS before it signs, so relying parties' caches
-- already hold it), 'active' (signs), 'retiring' (published until retire_at,
-- when every token it signed has expired) or 'retired' (no longer published).
ALTER TABLE auth.signing_keys DROP CONSTRAINT IF EXISTS signing_keys_alg_check;
ALTER TABLE auth.signing_keys ADD CONSTRAINT signing_keys_alg_check CHECK (alg IN ('RS256', 'ES256', 'EdDSA'));
ALTER TABLE auth.signing_keys DROP CONSTRAINT IF EXISTS signing_keys_status_check;
ALTER TABLE auth.signing_keys ADD CONSTRAINT signing_keys_status_check CHECK (status IN ('next', 'active', 'retiring', 'retired'));
ALTER TABLE auth.signing_keys ADD COLUMN activated_at timestamptz;
ALTER TABLE auth.signing_keys ADD COLUMN retire_at timestamptz;
-- The rotation schedule of keys already in use starts now: no key is rotated
-- at the first start after the upgrade, before relying parties saw a next key.
UPDATE auth.signing_keys SET activated_at = now() WHERE status = 'active';
