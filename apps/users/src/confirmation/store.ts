import type { Queryable } from "@gatehouse/db";
import type { DeliveryPurpose } from "@gatehouse/jobs";
import type { IdKey } from "../users/identifiers.ts";

/** A confirmation code and link of one identifier value (users.confirmations); the code and token as MACs only. */
export interface Confirmation {
  id: string;
  userId: string;
  key: IdKey;
  value: string;
  codeHash: string;
  linkTokenHash: string;
  contextUrl: string | null;
  clientId: string | null;
  entrypointId: string | null;
  attempts: number;
  createdAt: Date;
}

export interface NewConfirmation {
  id: string;
  userId: string;
  key: IdKey;
  value: string;
  purpose: DeliveryPurpose;
  codeHash: string;
  linkTokenHash: string;
  contextUrl: string | null;
  clientId: string | null;
  entrypointId: string | null;
  ttlSeconds: number;
}

/** What the data export shows of a confirmation (never its code or token). */
export interface ConfirmationHistory {
  key: string;
  value: string;
  purpose: string;
  contextUrl: string | null;
  clientId: string | null;
  entrypointId: string | null;
  createdAt: Date;
  expiresAt: Date;
  attempts: number;
  usedAt: Date | null;
  supersededAt: Date | null;
}

/** users.confirmations. A live row is unused, not superseded, not expired, with tries left. */
export interface ConfirmationStore {
  insert(c: NewConfirmation): Promise<void>;
  /** Live codes of the identifier stop working (a new code, a removed value, a dropped replacement). */
  supersedeLive(userId: string, key: IdKey): Promise<void>;
  /** Spends one try of the live confirmation a link token's MAC names (committed on its own: wrong guesses count). */
  spendLinkTry(linkTokenHash: string, maxAttempts: number): Promise<Confirmation | undefined>;
  /** Spends one try of EVERY live confirmation of (user, key) and returns them. */
  spendCodeTries(userId: string, key: string, maxAttempts: number): Promise<Confirmation[]>;
  /** Marks it used: true for the one caller that did. */
  use(id: string): Promise<boolean>;
  /** The other live codes of the same value (earlier sends) stop working. */
  supersedeSiblings(used: Pick<Confirmation, "id" | "userId" | "key" | "value">): Promise<void>;
  /** Where the latest message for this value came from (the patch's context.url, its application). */
  latestOrigin(
    userId: string,
    key: IdKey,
    value: string,
  ): Promise<Pick<Confirmation, "contextUrl" | "clientId" | "entrypointId"> | undefined>;
  history(userId: string): Promise<ConfirmationHistory[]>;
  erase(userId: string): Promise<void>;
}

interface ConfirmationRow {
  id: string;
  user_id: string;
  key: IdKey;
  value: string;
  code_hash: string;
  link_token_hash: string;
  context_url: string | null;
  client_id: string | null;
  entrypoint_id: string | null;
  attempts: number;
  created_at: Date;
}

const LIVE = "used_at IS NULL AND superseded_at IS NULL AND expires_at > now() AND attempts < $2";
const COLUMNS =
  "id, user_id, key, value, code_hash, link_token_hash, context_url, client_id, entrypoint_id, attempts, created_at";

const toConfirmation = (r: ConfirmationRow): Confirmation => ({
  id: r.id,
  userId: r.user_id,
  key: r.key,
  value: r.value,
  codeHash: r.code_hash,
  linkTokenHash: r.link_token_hash,
  contextUrl: r.context_url,
  clientId: r.client_id,
  entrypointId: r.entrypoint_id,
  attempts: r.attempts,
  createdAt: r.created_at,
});

export function confirmationStore(q: Queryable): ConfirmationStore {
  return {
    async insert(c) {
      await q.query(
        `INSERT INTO users.confirmations
           (id, user_id, key, value, purpose, code_hash, link_token_hash, context_url, client_id, entrypoint_id, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() + make_interval(secs => $11))`,
        [
          c.id,
          c.userId,
          c.key,
          c.value,
          c.purpose,
          c.codeHash,
          c.linkTokenHash,
          c.contextUrl,
          c.clientId,
          c.entrypointId,
          c.ttlSeconds,
        ],
      );
    },

    async supersedeLive(userId, key) {
      await q.query(
        `UPDATE users.confirmations SET superseded_at = now() WHERE user_id = $1 AND key = $2 AND used_at IS NULL AND superseded_at IS NULL`,
        [userId, key],
      );
    },

    async spendLinkTry(linkTokenHash, maxAttempts) {
      const r = await q.query<ConfirmationRow>(
        `UPDATE users.confirmations SET attempts = attempts + 1 WHERE link_token_hash = $1 AND ${LIVE} RETURNING ${COLUMNS}`,
        [linkTokenHash, maxAttempts],
      );
      return r.rows[0] && toConfirmation(r.rows[0]);
    },

    async spendCodeTries(userId, key, maxAttempts) {
      const r = await q.query<ConfirmationRow>(
        `UPDATE users.confirmations SET attempts = attempts + 1
          WHERE user_id = $1 AND key = $3 AND ${LIVE}
          RETURNING ${COLUMNS}`,
        [userId, maxAttempts, key],
      );
      return r.rows.map(toConfirmation);
    },

    async use(id) {
      const used = await q.query(
        `UPDATE users.confirmations SET used_at = now() WHERE id = $1 AND used_at IS NULL AND superseded_at IS NULL RETURNING id`,
        [id],
      );
      return used.rowCount > 0;
    },

    async supersedeSiblings(used) {
      await q.query(
        `UPDATE users.confirmations SET superseded_at = now()
          WHERE user_id = $1 AND key = $2 AND value = $3 AND id <> $4 AND used_at IS NULL AND superseded_at IS NULL`,
        [used.userId, used.key, used.value, used.id],
      );
    },

    async latestOrigin(userId, key, value) {
      const r = await q.query<{ context_url: string | null; client_id: string | null; entrypoint_id: string | null }>(
        `SELECT context_url, client_id, entrypoint_id FROM users.confirmations
          WHERE user_id = $1 AND key = $2 AND value = $3 ORDER BY created_at DESC LIMIT 1`,
        [userId, key, value],
      );
      const row = r.rows[0];
      return row && { contextUrl: row.context_url, clientId: row.client_id, entrypointId: row.entrypoint_id };
    },

    async history(userId) {
      const r = await q.query<ConfirmationHistory>(
        `SELECT key, value, purpose, context_url AS "contextUrl", client_id AS "clientId", entrypoint_id AS "entrypointId",
                created_at AS "createdAt", expires_at AS "expiresAt", attempts, used_at AS "usedAt", superseded_at AS "supersededAt"
           FROM users.confirmations WHERE user_id = $1 ORDER BY created_at, id`,
        [userId],
      );
      return r.rows;
    },

    async erase(userId) {
      await q.query(`DELETE FROM users.confirmations WHERE user_id = $1`, [userId]);
    },
  };
}
