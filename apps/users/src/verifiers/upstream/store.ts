import type { Queryable } from "@gatehouse/db";

/** One account at an upstream provider, linked to a user (users.identities, migration 012). */
export interface LinkedIdentity {
  provider: string;
  subject: string;
  email: string;
}

export const IDENTITY_TAKEN = "identities_pkey";
export const PROVIDER_TAKEN = "identities_one_per_provider";

/** users.identities: who is linked to (provider, subject). */
export function identityStore(q: Queryable) {
  return {
    async userOf(provider: string, subject: string): Promise<string | undefined> {
      const r = await q.query<{ user_id: string }>(
        "SELECT user_id FROM users.identities WHERE provider = $1 AND subject = $2",
        [provider, subject],
      );
      return r.rows[0]?.user_id;
    },
    /** Throws a unique violation when the identity or the user's identity at that provider is taken. */
    async link(userId: string, identity: LinkedIdentity): Promise<void> {
      await q.query("INSERT INTO users.identities (provider, subject, user_id, email) VALUES ($1, $2, $3, $4)", [
        identity.provider,
        identity.subject,
        userId,
        identity.email,
      ]);
    },
    async unlink(userId: string, provider: string): Promise<boolean> {
      const r = await q.query("DELETE FROM users.identities WHERE user_id = $1 AND provider = $2", [userId, provider]);
      return r.rowCount > 0;
    },
    async unlinkAll(userId: string): Promise<number> {
      return (await q.query("DELETE FROM users.identities WHERE user_id = $1", [userId])).rowCount;
    },
  };
}

export type IdentityStore = ReturnType<typeof identityStore>;
