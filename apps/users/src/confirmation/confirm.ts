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
  /** The entry point of the change (its application's default callback applies without a context.url). */
  entrypointId: string | null;
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

const invalid = (metadata: Record<string, string> = {}) => domainError("INVALID_CODE", undefined, { metadata });

const LIVE = "used_at IS NULL AND superseded_at IS NULL AND expires_at > now() AND attempts < $2";

const COLUMNS =
  "id, user_id, key, value, code_hash, link_token_hash, context_url, client_id, entrypoint_id, attempts, created_at";

/**
 * Spends one try of the live confirmation a link token names. The increment
 * is committed on its own, so that wrong guesses count even though the
 * request fails; once `maxAttempts` tries are spent the confirmation is dead.
 */
async function spendLinkTry(deps: ConfirmDeps, linkToken: string): Promise<ConfirmationRow | undefined> {
  const hash = deps.keys.mac(CONFIRMATION_MAC)(linkToken);
  const r = await deps.db.query<ConfirmationRow>(
    `UPDATE users.confirmations SET attempts = attempts + 1 WHERE link_token_hash = $1 AND ${LIVE} RETURNING ${COLUMNS}`,
    [hash, deps.options.maxAttempts],
  );
  return r.rows[0];
}

/**
 * Spends one try of EVERY live confirmation of (user, key): a resend leaves
 * the earlier codes live, so a code may match any of them, and each guess
 * costs each of them a try (5 guesses kill them all, however many there are).
 * Every row is compared in constant time, without stopping at a match.
 */
async function spendCodeTry(deps: ConfirmDeps, req: { userId: string; key: string; code: string }) {
  const r = await deps.db.query<ConfirmationRow>(
    `UPDATE users.confirmations SET attempts = attempts + 1
      WHERE user_id = $1 AND key = $3 AND ${LIVE}
      RETURNING ${COLUMNS}`,
    [req.userId, deps.options.maxAttempts, req.key],
  );
  const mac = deps.keys.mac(CONFIRMATION_MAC);
  let match: ConfirmationRow | undefined;
  // Newest first, so that the rare double match takes the latest code.
  for (const row of r.rows.sort((a, b) => b.created_at.getTime() - a.created_at.getTime())) {
    const equal = constantTimeEqual(mac(`${row.id}:${req.code}`), row.code_hash);
    if (equal && !match) match = row;
  }
  const fewestSpent = Math.min(...r.rows.map((row) => row.attempts));
  return { match, any: r.rows.length > 0, attemptsLeft: Math.max(0, deps.options.maxAttempts - fewestSpent) };
}

/**
 * Confirms an identifier by link token or by (user, key, code): constant-time
 * MAC comparison, one use (the first `used_at` update wins), expiry and a
 * limited number of tries. The confirmed value becomes active: the
 * identifier is marked confirmed or its pending replacement is swapped in.
 */
export async function confirmIdentifier(deps: ConfirmDeps, req: ConfirmRequest): Promise<Confirmed> {
  if ("linkToken" in req ? !req.linkToken : !req.userId || !req.code || !isIdKey(req.key)) throw invalid();
  let row: ConfirmationRow | undefined;
  if ("linkToken" in req) {
    row = await spendLinkTry(deps, req.linkToken);
  } else {
    const spent = await spendCodeTry(deps, req);
    if (spent.any && !spent.match) throw invalid({ attempts_left: String(spent.attemptsLeft) });
    row = spent.match;
  }
  if (!row) throw invalid();

  const user = await deps.db.tx(async (q) => {
    // One confirmation of an identifier at a time: two live codes of one value
    // (a resend) used in parallel must not both succeed.
    await q.query(`SELECT 1 FROM users.identifiers WHERE user_id = $1 AND key = $2 FOR UPDATE`, [row.user_id, row.key]);
    const used = await q.query(
      `UPDATE users.confirmations SET used_at = now() WHERE id = $1 AND used_at IS NULL AND superseded_at IS NULL RETURNING id`,
      [row.id],
    );
    if (used.rowCount === 0) throw invalid(); // a parallel request used it (or a sibling) first
    // The other live codes of this value (earlier sends) have done their job.
    await q.query(
      `UPDATE users.confirmations SET superseded_at = now()
        WHERE user_id = $1 AND key = $2 AND value = $3 AND id <> $4 AND used_at IS NULL AND superseded_at IS NULL`,
      [row.user_id, row.key, row.value, row.id],
    );
    const store = userStore(q);
    let applied: boolean;
    try {
      applied =
        (await store.promotePending(row.user_id, row.key, row.value)) ||
        (await store.confirmActive(row.user_id, row.key, row.value));
    } catch (err) {
      if (isUniqueViolation(err, IDENTIFIER_UNIQUE))
        throw domainError("IDENTIFIER_TAKEN", undefined, { metadata: { key: row.key } });
      throw err;
    }
    // The identifier changed since the code was sent: the code confirms nothing.
    if (!applied) throw invalid();
    await store.touch(row.user_id);
    return store.byId(row.user_id);
  });
  if (!user) throw invalid();
  return { user, key: row.key, contextUrl: row.context_url, clientId: row.client_id, entrypointId: row.entrypoint_id };
}
