import type { Queryable } from "@gatehouse/db";

/** A user's passkey as stored (users.passkeys). */
export interface PasskeyRecord {
  id: string;
  userId: string;
  /** The authenticator's credential id, base64url. */
  credentialId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  deviceType: "singleDevice" | "multiDevice";
  backedUp: boolean;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export type NewPasskey = Omit<PasskeyRecord, "createdAt" | "lastUsedAt">;

/** The passkeys of users (users.passkeys). */
export interface PasskeyStore {
  /** The stored passkey; undefined when the credential id is already enrolled (by anyone). */
  insert(p: NewPasskey): Promise<PasskeyRecord | undefined>;
  byCredentialId(credentialId: string): Promise<PasskeyRecord | undefined>;
  /** Oldest first. */
  ofUser(userId: string): Promise<PasskeyRecord[]>;
  count(userId: string): Promise<number>;
  rename(userId: string, id: string, name: string): Promise<PasskeyRecord | undefined>;
  remove(userId: string, id: string): Promise<boolean>;
  /**
   * A sign-in's new counter, flags and time, only while the stored counter is
   * still `seen` (two sign-ins racing with one assertion: one wins); false otherwise.
   */
  recordUse(id: string, seen: number, use: { counter: number; backedUp: boolean }): Promise<boolean>;
  /** Erasure. */
  erase(userId: string): Promise<void>;
}

interface Row {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: Uint8Array;
  counter: string | number;
  device_type: "singleDevice" | "multiDevice";
  backed_up: boolean;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

const COLUMNS = `id, user_id, credential_id, public_key, counter, device_type, backed_up, transports, name, created_at, last_used_at`;

const record = (r: Row): PasskeyRecord => ({
  id: r.id,
  userId: r.user_id,
  credentialId: r.credential_id,
  publicKey: new Uint8Array(r.public_key),
  counter: Number(r.counter),
  deviceType: r.device_type,
  backedUp: r.backed_up,
  transports: r.transports ?? [],
  name: r.name,
  createdAt: new Date(r.created_at),
  lastUsedAt: r.last_used_at && new Date(r.last_used_at),
});

export function passkeyStore(q: Queryable): PasskeyStore {
  return {
    async insert(p) {
      const { rows } = await q.query<Row>(
        `INSERT INTO users.passkeys (id, user_id, credential_id, public_key, counter, device_type, backed_up, transports, name)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (credential_id) DO NOTHING RETURNING ${COLUMNS}`,
        [
          p.id,
          p.userId,
          p.credentialId,
          Buffer.from(p.publicKey),
          p.counter,
          p.deviceType,
          p.backedUp,
          p.transports,
          p.name,
        ],
      );
      return rows[0] && record(rows[0]);
    },

    async byCredentialId(credentialId) {
      const { rows } = await q.query<Row>(`SELECT ${COLUMNS} FROM users.passkeys WHERE credential_id = $1`, [
        credentialId,
      ]);
      return rows[0] && record(rows[0]);
    },

    async ofUser(userId) {
      const { rows } = await q.query<Row>(
        `SELECT ${COLUMNS} FROM users.passkeys WHERE user_id = $1 ORDER BY created_at, id`,
        [userId],
      );
      return rows.map(record);
    },

    async count(userId) {
      const { rows } = await q.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM users.passkeys WHERE user_id = $1`,
        [userId],
      );
      return rows[0]?.n ?? 0;
    },

    async rename(userId, id, name) {
      const { rows } = await q.query<Row>(
        `UPDATE users.passkeys SET name = $3 WHERE user_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [userId, id, name],
      );
      return rows[0] && record(rows[0]);
    },

    async remove(userId, id) {
      const r = await q.query(`DELETE FROM users.passkeys WHERE user_id = $1 AND id = $2`, [userId, id]);
      return r.rowCount > 0;
    },

    async recordUse(id, seen, use) {
      const r = await q.query(
        `UPDATE users.passkeys SET counter = $3, backed_up = $4, last_used_at = now() WHERE id = $1 AND counter = $2`,
        [id, seen, use.counter, use.backedUp],
      );
      return r.rowCount > 0;
    },

    async erase(userId) {
      await q.query(`DELETE FROM users.passkeys WHERE user_id = $1`, [userId]);
    },
  };
}
