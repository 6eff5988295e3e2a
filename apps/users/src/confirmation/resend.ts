import type { Db, Queryable } from "@gatehouse/db";
import { domainError, errorFacts } from "@gatehouse/errors";
import type { DeliveryLocale } from "@gatehouse/jobs";
import type { Kv } from "@gatehouse/kv";
import type { KeyRing } from "@gatehouse/secrets";
import { resendActivation } from "../activation/issue.ts";
import { CONFIRMABLE_KEYS, type IdKey } from "../users/identifiers.ts";
import { userStore } from "../users/store.ts";
import { issueConfirmation, type Enqueue } from "./issue.ts";
import type { ConfirmationOptions } from "./options.ts";

export interface ResendDeps {
  db: Db;
  kv: Kv;
  keys: KeyRing;
  enqueue: Enqueue;
  options: ConfirmationOptions;
}

export interface ResendRequest {
  userId: string;
  key: string;
  locale: DeliveryLocale;
}

/** `sent`: queued; `nothing`: nothing to confirm (same answer outside); `limited`: over the resend limit. */
export type ResendOutcome = { status: "sent" | "nothing" } | { status: "limited"; retryAfterSeconds: number };

const TOKEN_BOX = "confirmation-resend";
const TOKEN_AAD = "resend-token-v1";

const counterKey = (userId: string, key: string) => `users:resend:${userId}:${key}`;

/** The stateless token of the 412 `content.url`: user, key and expiry sealed (AES-256-GCM) with the service key. */
export function sealResendToken(
  keys: KeyRing,
  options: ConfirmationOptions,
  userId: string,
  key: IdKey,
  now = Date.now(),
): string {
  const expires = Math.floor(now / 1000) + options.resendTokenTtlSeconds;
  return keys.box(TOKEN_BOX).seal(JSON.stringify({ u: userId, k: key, x: expires }), TOKEN_AAD);
}

/** The user and key of a resend token; INVALID_CODE when it is forged, damaged or expired. */
export function openResendToken(keys: KeyRing, token: string, now = Date.now()): { userId: string; key: string } {
  let parsed: { u?: unknown; k?: unknown; x?: unknown };
  try {
    // The full 128-bit GCM tag (22 base64url chars): Node would accept a truncated one.
    if (token.split(".")[3]?.length !== 22) throw new Error("tag length");
    parsed = JSON.parse(keys.box(TOKEN_BOX).open(token, TOKEN_AAD)) as typeof parsed;
  } catch {
    throw domainError("INVALID_CODE", "The resend link is not valid.");
  }
  if (
    typeof parsed.u !== "string" ||
    typeof parsed.k !== "string" ||
    typeof parsed.x !== "number" ||
    parsed.x * 1000 <= now
  ) {
    throw domainError("INVALID_CODE", "The resend link is not valid or has expired.");
  }
  return { userId: parsed.u, key: parsed.k };
}

/**
 * Sends a new code and link for an unconfirmed identifier: its active value
 * when unconfirmed, else its pending replacement. The earlier codes stay live
 * (purpose "resend" supersedes nothing). The resend is counted BEFORE anything
 * else, so parallel requests cannot pass the limit and a confirmed identifier
 * answers like an unconfirmed one; a delivery the queue refused is given back.
 */
export async function resendConfirmation(deps: ResendDeps, req: ResendRequest): Promise<ResendOutcome> {
  const key = req.key as "email" | "phone_number";
  if (!CONFIRMABLE_KEYS.includes(key)) return { status: "nothing" };
  const counted = await deps.kv.incr(counterKey(req.userId, key), deps.options.resendWindowSeconds);
  if (counted.count > deps.options.resendLimit) return { status: "limited", retryAfterSeconds: counted.ttlSeconds };

  const user = await userStore(deps.db).byId(req.userId);
  // An account awaiting activation gets its activation link again (it confirms the identifier and sets the password).
  if (user?.awaitingActivation) {
    return (await sendOrGiveBack(deps, req.userId, key, (q) => resendActivation(q, deps, req.userId, req.locale)))
      ? { status: "sent" }
      : { status: "nothing" };
  }
  const id = user?.identifiers.find((i) => i.key === key);
  const value = id && (!id.confirmed ? id.value : id.pendingValue);
  if (!value) return { status: "nothing" };

  await sendOrGiveBack(deps, req.userId, key, async (q) => {
    // Where the earlier message for this value came from (the patch's context.url, its application).
    const earlier = await q.query<{
      context_url: string | null;
      client_id: string | null;
      entrypoint_id: string | null;
    }>(
      `SELECT context_url, client_id, entrypoint_id FROM users.confirmations
        WHERE user_id = $1 AND key = $2 AND value = $3 ORDER BY created_at DESC LIMIT 1`,
      [req.userId, key, value],
    );
    const from = earlier.rows[0];
    await issueConfirmation(q, deps, {
      userId: req.userId,
      key,
      value,
      purpose: "resend",
      locale: req.locale,
      clientId: from?.client_id ?? undefined,
      entrypointId: from?.entrypoint_id ?? undefined,
      contextUrl: from?.context_url ?? undefined,
    });
    return true;
  });
  return { status: "sent" };
}

/** Sends in one transaction; a delivery the queue refused gives its count back. */
async function sendOrGiveBack(
  deps: ResendDeps,
  userId: string,
  key: string,
  send: (q: Queryable) => Promise<boolean>,
): Promise<boolean> {
  try {
    return await deps.db.tx(send);
  } catch (err) {
    await deps.kv.decr(counterKey(userId, key));
    throw err;
  }
}

/** What the 412 of a login carries: the key a code was resent for, the resend link's token, and the limit when it was hit. */
export interface LoginResend {
  key: IdKey;
  resendToken: string;
  /** Seconds until a resend is allowed again, when the limit stopped this one. */
  limitedForSeconds?: number;
  /** The queue refused the delivery: the 412 stays the same; the error is for the log. */
  notQueued?: unknown;
}

/**
 * The 412 of a login: resends a code for the identifier that blocks it (the
 * email when it is among them, else the first) and seals the token of the
 * resend link. A queue failure does not change the 412.
 */
export async function resendAtLogin(
  deps: ResendDeps,
  req: { userId: string; unconfirmed: IdKey[]; locale: DeliveryLocale; skip?: boolean },
): Promise<LoginResend> {
  const key = req.unconfirmed.includes("email") ? "email" : req.unconfirmed[0]!;
  const resendToken = sealResendToken(deps.keys, deps.options, req.userId, key);
  // A hosted flow that has just sent a code (the registration) does not send another.
  if (req.skip) return { key, resendToken };
  try {
    const outcome = await resendConfirmation(deps, { userId: req.userId, key, locale: req.locale });
    return outcome.status === "limited"
      ? { key, resendToken, limitedForSeconds: outcome.retryAfterSeconds }
      : { key, resendToken };
  } catch (err) {
    if (errorFacts(err).reason !== "CONFIRMATION_NOT_QUEUED") throw err;
    return { key, resendToken, notQueued: err };
  }
}
