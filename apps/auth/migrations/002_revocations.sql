-- Revocations (issue 15): the source of truth. The shared kv (Redis, or the
-- in-process store of `npm start`) holds one mark per live row for the hot
-- path, and is rebuilt from here whenever it lost them (a restart).
--   kind  'token'   id = jti, value = its exp
--         'session' id = sid, value = when its last access token expires
--   (a kind is one entry of REVOCATION_KINDS in src/revocation/kinds.ts)
-- until: the row matters until then; every token it covers has expired after it.
CREATE TABLE auth.revocations (
  kind       text NOT NULL,
  id         text NOT NULL,
  value      text NOT NULL,
  until      timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, id)
);
CREATE INDEX revocations_until ON auth.revocations (until);
