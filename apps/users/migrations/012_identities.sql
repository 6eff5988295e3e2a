-- Social sign-in (contract section 11, issue 25): a user's accounts at
-- upstream identity providers. One per (provider, subject) across users, one
-- per provider per user. No upstream token is kept.
CREATE TABLE users.identities (
  provider text NOT NULL,
  subject text NOT NULL,
  user_id text NOT NULL REFERENCES users.users (id) ON DELETE CASCADE,
  email text NOT NULL DEFAULT '',
  linked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, subject),
  CONSTRAINT identities_one_per_provider UNIQUE (user_id, provider)
);
CREATE INDEX identities_user ON users.identities (user_id);
