import type { Queryable } from "@gatehouse/db";

export type DeviceStatus = "pending" | "approved" | "denied" | "issued";

/** One device authorization as stored (both codes only as keyed hashes). */
export interface DeviceRecord {
  deviceHash: string;
  userCodeHash: string;
  clientId: string;
  applicationId: string;
  entrypointId: string;
  sourceId: string;
  scope: string;
  status: DeviceStatus;
  /** Who signed in on the /device page, when (seconds), and the session id their login's code named. */
  userId?: string;
  authTime?: number;
  sid?: string;
  intervalSeconds: number;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export type NewDevice = Omit<DeviceRecord, "status" | "userId" | "authTime" | "sid">;

/** The poll of an undecided code: whether it came too soon after the last one (the interval then grew). */
export interface PollMark {
  tooSoon: boolean;
  intervalSeconds: number;
}

/**
 * Where device authorizations live. Every change that must happen once is
 * one conditional statement (a compare-and-set on status), so racing polls
 * and racing pages on any replica agree on who won.
 */
export interface DeviceStore {
  /** False when either hash is already taken (a user code collision: draw again). */
  insert(d: NewDevice, now: number): Promise<boolean>;
  byDeviceHash(hash: string): Promise<DeviceRecord | undefined>;
  byUserCodeHash(hash: string): Promise<DeviceRecord | undefined>;
  /** Records who signed in for a pending, unexpired code; false otherwise. */
  signIn(userCodeHash: string, who: { userId: string; authTime: number; sid: string }, now: number): Promise<boolean>;
  /** pending -> approved or denied, by the person who signed in for it; false otherwise. */
  decide(userCodeHash: string, userId: string, approve: boolean, now: number): Promise<boolean>;
  /** Records a poll of a pending code: too soon (within the interval) grows the interval by `step` seconds. */
  markPoll(deviceHash: string, now: number, step: number): Promise<PollMark | undefined>;
  /** approved -> issued: the one caller that gets the record issues tokens. */
  claim(deviceHash: string, now: number): Promise<DeviceRecord | undefined>;
  /** Deletes rows expired longer ago than `keepMs`. */
  purge(now: number, keepMs: number): Promise<void>;
}

interface Row {
  device_hash: string;
  user_code_hash: string;
  client_id: string;
  application_id: string;
  entrypoint_id: string;
  source_id: string;
  scope: string;
  status: DeviceStatus;
  user_id: string | null;
  auth_time: string | number | null;
  sid: string | null;
  interval_s: number;
  expires_ms: string | number;
}

const COLUMNS = `device_hash, user_code_hash, client_id, application_id, entrypoint_id, source_id, scope, status,
  user_id, auth_time, sid, interval_s, (extract(epoch FROM expires_at) * 1000)::bigint AS expires_ms`;

const toRecord = (r: Row): DeviceRecord => ({
  deviceHash: r.device_hash,
  userCodeHash: r.user_code_hash,
  clientId: r.client_id,
  applicationId: r.application_id,
  entrypointId: r.entrypoint_id,
  sourceId: r.source_id,
  scope: r.scope,
  status: r.status,
  ...(r.user_id === null ? {} : { userId: r.user_id }),
  ...(r.auth_time === null ? {} : { authTime: Number(r.auth_time) }),
  ...(r.sid === null ? {} : { sid: r.sid }),
  intervalSeconds: r.interval_s,
  expiresAt: Number(r.expires_ms),
});

// Times are passed in (ms) rather than read from the database clock, so every replica and test decides alike.
const ts = (ms: number) => new Date(ms).toISOString();

/** auth.device_codes (migration 004): PostgreSQL, or PGlite in the embedded default; the same SQL. */
export function deviceStore(db: Queryable): DeviceStore {
  const one = async (sql: string, params: unknown[]) => {
    const r = await db.query<Row>(sql, params);
    return r.rows[0] ? toRecord(r.rows[0]) : undefined;
  };
  return {
    async insert(d, now) {
      const r = await db.query(
        `INSERT INTO auth.device_codes
           (device_hash, user_code_hash, client_id, application_id, entrypoint_id, source_id, scope, interval_s, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING RETURNING device_hash`,
        [
          d.deviceHash,
          d.userCodeHash,
          d.clientId,
          d.applicationId,
          d.entrypointId,
          d.sourceId,
          d.scope,
          d.intervalSeconds,
          ts(now),
          ts(d.expiresAt),
        ],
      );
      return r.rowCount === 1;
    },
    byDeviceHash: (hash) => one(`SELECT ${COLUMNS} FROM auth.device_codes WHERE device_hash = $1`, [hash]),
    byUserCodeHash: (hash) => one(`SELECT ${COLUMNS} FROM auth.device_codes WHERE user_code_hash = $1`, [hash]),
    async signIn(userCodeHash, who, now) {
      const r = await db.query(
        `UPDATE auth.device_codes SET user_id = $2, auth_time = $3, sid = $4
          WHERE user_code_hash = $1 AND status = 'pending' AND expires_at > $5`,
        [userCodeHash, who.userId, who.authTime, who.sid, ts(now)],
      );
      return r.rowCount === 1;
    },
    async decide(userCodeHash, userId, approve, now) {
      const r = await db.query(
        `UPDATE auth.device_codes SET status = $3
          WHERE user_code_hash = $1 AND user_id = $2 AND status = 'pending' AND expires_at > $4`,
        [userCodeHash, userId, approve ? "approved" : "denied", ts(now)],
      );
      return r.rowCount === 1;
    },
    async markPoll(deviceHash, now, step) {
      // One statement: the old last_poll_at is read in the row the UPDATE locks, so two racing polls
      // cannot both see "long enough ago". Half a second of leeway absorbs network jitter.
      const r = await db.query<{ too_soon: boolean; interval_s: number }>(
        `WITH old AS (SELECT last_poll_at, interval_s FROM auth.device_codes WHERE device_hash = $1 AND status = 'pending' FOR UPDATE)
         UPDATE auth.device_codes d SET last_poll_at = $2,
           interval_s = CASE WHEN old.last_poll_at > $2::timestamptz - make_interval(secs => old.interval_s - 0.5)
                             THEN old.interval_s + $3 ELSE old.interval_s END
           FROM old WHERE d.device_hash = $1
         RETURNING (old.last_poll_at > $2::timestamptz - make_interval(secs => old.interval_s - 0.5)) IS TRUE AS too_soon, d.interval_s`,
        [deviceHash, ts(now), step],
      );
      const row = r.rows[0];
      return row ? { tooSoon: row.too_soon, intervalSeconds: row.interval_s } : undefined;
    },
    claim: (deviceHash, now) =>
      one(
        `UPDATE auth.device_codes SET status = 'issued'
          WHERE device_hash = $1 AND status = 'approved' AND expires_at > $2 RETURNING ${COLUMNS}`,
        [deviceHash, ts(now)],
      ),
    async purge(now, keepMs) {
      await db.query("DELETE FROM auth.device_codes WHERE expires_at < $1", [ts(now - keepMs)]);
    },
  };
}
