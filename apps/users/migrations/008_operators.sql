-- Issue 12: operator persons. An operator is a user with the role 'operator':
-- they may sign in to the administration console (its public client) and get
-- the admin scopes; TOTP is always required of them, whatever an
-- application's MFA policy says.
ALTER TABLE users.users ADD COLUMN role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'operator'));
CREATE INDEX users_operators ON users.users (id) WHERE role = 'operator';
