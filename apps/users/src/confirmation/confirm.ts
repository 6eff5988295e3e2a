import { domainError } from "@gatehouse/errors";
import { constantTimeEqual, type KeyRing } from "@gatehouse/secrets";
import type { Transactional } from "../transactional.ts";
import { isIdKey, type IdKey } from "../users/identifiers.ts";
import type { UserRecord } from "../users/record.ts";
import { IDENTIFIER_UNIQUE, isUniqueViolation, type UserStore } from "../users/store.ts";
import { CONFIRMATION_MAC, type ConfirmationOptions } from "./options.ts";
import type { Confirmation, ConfirmationStore } from "./store.ts";
import type { EventStore } from "../events/store.ts";

export interface ConfirmDeps {
  data: Transactional<{ users: UserStore; confirmations: ConfirmationStore; events: EventStore }>;
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

const invalid = (metadata: Record<string, string> = {}) => domainError("INVALID_CODE", undefined, { metadata });

/**
 * Spends one try of EVERY live confirmation of (user, key): a resend leaves
 * the earlier codes live, so a code may match any of them, and each guess
 * costs each of them a try (5 guesses kill them all, however many there are).
 * Every row is compared in constant time, without stopping at a match.
 */
async function spendCodeTry(deps: ConfirmDeps, req: { userId: string; key: string; code: string }) {
  const rows = await deps.data.confirmations.spendCodeTries(req.userId, req.key, deps.options.maxAttempts);
  const mac = deps.keys.mac(CONFIRMATION_MAC);
  let match: Confirmation | undefined;
  // Newest first, so that the rare double match takes the latest code.
  for (const row of rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())) {
    const equal = constantTimeEqual(mac(`${row.id}:${req.code}`), row.codeHash);
    if (equal && !match) match = row;
  }
  const fewestSpent = Math.min(...rows.map((row) => row.attempts));
  return { match, any: rows.length > 0, attemptsLeft: Math.max(0, deps.options.maxAttempts - fewestSpent) };
}

/**
 * Confirms an identifier by link token or by (user, key, code): constant-time
 * MAC comparison, one use (the first `used_at` update wins), expiry and a
 * limited number of tries (each spent try is committed on its own, so wrong
 * guesses count even though the request fails). The confirmed value becomes
 * active: the identifier is marked confirmed or its pending replacement is
 * swapped in.
 */
export async function confirmIdentifier(deps: ConfirmDeps, req: ConfirmRequest): Promise<Confirmed> {
  const { data } = deps;
  if ("linkToken" in req ? !req.linkToken : !req.userId || !req.code || !isIdKey(req.key)) throw invalid();
  let row: Confirmation | undefined;
  if ("linkToken" in req) {
    row = await data.confirmations.spendLinkTry(
      deps.keys.mac(CONFIRMATION_MAC)(req.linkToken),
      deps.options.maxAttempts,
    );
  } else {
    const spent = await spendCodeTry(deps, req);
    if (spent.any && !spent.match) throw invalid({ attempts_left: String(spent.attemptsLeft) });
    row = spent.match;
  }
  if (!row) throw invalid();
  const used = row;

  const user = await data.tx(async ({ users, confirmations, events }) => {
    // One confirmation of an identifier at a time: two live codes of one value
    // (a resend) used in parallel must not both succeed.
    await users.lockIdentifier(used.userId, used.key);
    if (!(await confirmations.use(used.id))) throw invalid(); // a parallel request used it (or a sibling) first
    // The other live codes of this value (earlier sends) have done their job.
    await confirmations.supersedeSiblings(used);
    let applied: boolean;
    try {
      applied =
        (await users.promotePending(used.userId, used.key, used.value)) ||
        (await users.confirmActive(used.userId, used.key, used.value));
    } catch (err) {
      if (isUniqueViolation(err, IDENTIFIER_UNIQUE))
        throw domainError("IDENTIFIER_TAKEN", undefined, { metadata: { key: used.key } });
      throw err;
    }
    // The identifier changed since the code was sent: the code confirms nothing.
    if (!applied) throw invalid();
    await users.touch(used.userId);
    const confirmed = await users.byId(used.userId);
    if (confirmed) await events.user("user.confirmed", used.clientId, confirmed, [`ids.${used.key}`]);
    return confirmed;
  });
  if (!user) throw invalid();
  return { user, key: used.key, contextUrl: used.contextUrl, clientId: used.clientId, entrypointId: used.entrypointId };
}
