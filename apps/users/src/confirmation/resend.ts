import { errorFacts } from "@gatehouse/errors";
import type { DeliveryLocale } from "@gatehouse/jobs";
import type { Kv } from "@gatehouse/kv";
import type { KeyRing } from "@gatehouse/secrets";
import { resendActivation, type ActivationStores } from "../activation/issue.ts";
import type { Transactional } from "../transactional.ts";
import { CONFIRMABLE_KEYS, type IdKey } from "../users/identifiers.ts";
import type { UserStore } from "../users/store.ts";
import { issueConfirmation, type IssueStores } from "./issue.ts";
import type { ConfirmationOptions } from "./options.ts";
import { sealResendToken } from "./resend-token.ts";

type ResendStores = IssueStores & ActivationStores & { users: UserStore };

export interface ResendDeps {
  data: Transactional<ResendStores>;
  kv: Kv;
  keys: KeyRing;
  options: ConfirmationOptions;
}

export interface ResendRequest {
  userId: string;
  key: string;
  locale: DeliveryLocale;
}

/** `sent`: queued; `nothing`: nothing to confirm (same answer outside); `limited`: over the resend limit. */
export type ResendOutcome = { status: "sent" | "nothing" } | { status: "limited"; retryAfterSeconds: number };

const counterKey = (userId: string, key: string) => `users:resend:${userId}:${key}`;

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

  const user = await deps.data.users.byId(req.userId);
  // An account awaiting activation gets its activation link again (it confirms the identifier and sets the password).
  if (user?.awaitingActivation) {
    return (await sendOrGiveBack(deps, req.userId, key, (s) => resendActivation(s, deps.keys, req.userId, req.locale)))
      ? { status: "sent" }
      : { status: "nothing" };
  }
  const id = user?.identifiers.find((i) => i.key === key);
  const value = id && (!id.confirmed ? id.value : id.pendingValue);
  if (!value) return { status: "nothing" };

  await sendOrGiveBack(deps, req.userId, key, async (s) => {
    // Where the earlier message for this value came from (the patch's context.url, its application).
    const from = await s.confirmations.latestOrigin(req.userId, key, value);
    await issueConfirmation(s, deps, {
      userId: req.userId,
      key,
      value,
      purpose: "resend",
      locale: req.locale,
      clientId: from?.clientId ?? undefined,
      entrypointId: from?.entrypointId ?? undefined,
      contextUrl: from?.contextUrl ?? undefined,
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
  send: (stores: ResendStores) => Promise<boolean>,
): Promise<boolean> {
  try {
    return await deps.data.tx(send);
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
  req: { userId: string; unconfirmed: IdKey[]; locale: DeliveryLocale; skip?: boolean; entrypointId?: string },
): Promise<LoginResend> {
  const key = req.unconfirmed.includes("email") ? "email" : req.unconfirmed[0]!;
  const resendToken = sealResendToken(deps.keys, deps.options, req.userId, key, req.entrypointId);
  // A hosted flow that has just sent a code (the registration) does not send another.
  if (req.skip) return { key, resendToken };
  try {
    const outcome = await resendConfirmation(deps, { userId: req.userId, key, locale: req.locale });
    return outcome.status === "limited"
      ? { key, resendToken, limitedForSeconds: outcome.retryAfterSeconds }
      : { key, resendToken };
  } catch (err) {
    // The 412 stays the same when the message could not go (the queue, or the SMS limits).
    if (!["CONFIRMATION_NOT_QUEUED", "SMS_LIMIT"].includes(errorFacts(err).reason)) throw err;
    return { key, resendToken, notQueued: err };
  }
}
