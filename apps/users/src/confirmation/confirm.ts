import type { Db } from "@gatehouse/db";
import { domainError } from "@gatehouse/errors";
import { constantTimeEqual, type KeyRing } from "@gatehouse/secrets";
import { isIdKey, type IdKey } from "../users/identifiers.ts";
import { IDENTIFIER_UNIQUE, isUniqueViolation, userStore, type UserRecord } from "../users/store.ts";
import { CONFIRMATION_MAC, type ConfirmationOptions } from "./options.ts";

export interface ConfirmDeps {
  db: Db;
  keys: KeyRing;
  options: ConfirmationOptions;
}

export type ConfirmRequest = { linkToken: string } | { userId: string; key: string; code: string };

export interface Confirmed {
  user: UserRecord;
  key: IdKey;
  /** The patch's context.url, when the confirmation carried one. */
  contextUrl: string | null;
  clientId: string | null;
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
  attempts: number;
}

const invalid = (metadata: Record<string, string> = {}) => domainError("INVALID_CODE", undefined, { metadata });

const LIVE = "used_at IS NULL AND superseded_at IS NULL AND expires_at > now() AND attempts < $2";

/**
 * Spends one try of a live confirmation. The increment is committed on its
 * own, so that wrong guesses count even though the request fails; once
 * `maxAttempts` tries are spent the confirmation is dead.
 */
async function spendTry(deps: ConfirmDeps, req: ConfirmRequest): Promise<ConfirmationRow | undefined> {
  const max = deps.options.maxAttempts;
  const cols = "id, user_id, key, value, code_hash, link_token_hash, context_url, client_id, attempts";
  if ("linkToken" in req) {
    const hash = deps.keys.mac(CONFIRMATION_MAC)(req.linkToken);
    const r = await deps.db.query<ConfirmationRow>(
      `UPDATE users.confirmations SET attempts = attempts + 1 WHERE link_token_hash = $1 AND ${LIVE} RETURNING ${cols}`,
      [hash, max],
    );
    return r.rows[0];
  }
  const r = await deps.db.query<ConfirmationRow>(
    `UPDATE users.confirmations SET attempts = attempts + 1
      WHERE id = (SELECT id FROM users.confirmations
                   WHERE user_id = $1 AND key = $3 AND used_at IS NULL AND superseded_at IS NULL
                   ORDER BY created_at DESC LIMIT 1)
        AND ${LIVE}
      RETURNING ${cols}`,
    [req.userId, max, req.key],
  );
  return r.rows[0];
}

/**
 * Confirms an identifier by link token or by (user, key, code): constant-time
 * MAC comparison, one use (the first `used_at` update wins), expiry and a
 * limited number of tries. The confirmed value becomes active: the
 * identifier is marked confirmed or its pending replacement is swapped in.
 */
export async function confirmIdentifier(deps: ConfirmDeps, req: ConfirmRequest): Promise<Confirmed> {
  if ("linkToken" in req ? !req.linkToken : !req.userId || !req.code || !isIdKey(req.key)) throw invalid();
  const row = await spendTry(deps, req);
  if (!row) throw invalid();
  if (!("linkToken" in req)) {
    const presented = deps.keys.mac(CONFIRMATION_MAC)(`${row.id}:${req.code}`);
    if (!constantTimeEqual(presented, row.code_hash)) {
      throw invalid({ attempts_left: String(Math.max(0, deps.options.maxAttempts - row.attempts)) });
    }
  }

  const user = await deps.db.tx(async (q) => {
    const used = await q.query(`UPDATE users.confirmations SET used_at = now() WHERE id = $1 AND used_at IS NULL RETURNING id`, [row.id]);
    if (used.rowCount === 0) throw invalid(); // a parallel request used it first
    const store = userStore(q);
    let applied: boolean;
    try {
      applied = (await store.promotePending(row.user_id, row.key, row.value)) || (await store.confirmActive(row.user_id, row.key, row.value));
    } catch (err) {
      if (isUniqueViolation(err, IDENTIFIER_UNIQUE)) throw domainError("IDENTIFIER_TAKEN", undefined, { metadata: { key: row.key } });
      throw err;
    }
    // The identifier changed since the code was sent: the code confirms nothing.
    if (!applied) throw invalid();
    await store.touch(row.user_id);
    return store.byId(row.user_id);
  });
  if (!user) throw invalid();
  return { user, key: row.key, contextUrl: row.context_url, clientId: row.client_id };
}
