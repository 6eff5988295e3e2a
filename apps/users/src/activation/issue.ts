import { randomBytes } from "node:crypto";
import type { Queryable } from "@gatehouse/db";
import { domainError } from "@gatehouse/errors";
import { sealJobSecrets, type DeliveryLocale } from "@gatehouse/jobs";
import { randomSecret, type KeyRing } from "@gatehouse/secrets";
import type { Enqueue } from "../confirmation/issue.ts";

/** An activation link works this long (contract section 8: 7 days). */
export const ACTIVATION_TTL_SECONDS = 7 * 86_400;
/** MAC label of activation tokens: stored only as HMAC-SHA256. */
export const ACTIVATION_MAC = "activation";

export interface ActivationDeps {
  keys: KeyRing;
  enqueue: Enqueue;
}

export interface NewActivation {
  userId: string;
  key: "email" | "phone_number";
  value: string;
  locale: DeliveryLocale;
  clientId: string;
  entrypointId: string;
}

/**
 * Stores an activation link (its token's MAC only, 7 days, one use) for a
 * user an application registered through an assisted entry point, and queues
 * the message that carries it, inside the caller's transaction. Earlier live
 * links stay valid (a resend); using one ends them all.
 */
export async function issueActivation(q: Queryable, deps: ActivationDeps, req: NewActivation): Promise<void> {
  const { id, token } = await storeActivation(q, deps.keys, req);
  try {
    await deps.enqueue(
      {
        deliveryId: id,
        userId: req.userId,
        channel: req.key === "email" ? "email" : "sms",
        to: req.value,
        locale: req.locale,
        purpose: "activation",
        sealedSecrets: sealJobSecrets(deps.keys, id, { code: "", linkToken: token }),
      },
      q,
    );
  } catch (err) {
    const failure = domainError("CONFIRMATION_NOT_QUEUED", undefined, { metadata: { key: req.key } });
    failure.cause = err;
    throw failure;
  }
}

/**
 * Stores an activation link (its token's MAC only, 7 days, one use) inside the
 * caller's transaction and returns the token, which is nowhere else: the
 * caller sends it (issueActivation) or hands it over (create-operator).
 */
export async function storeActivation(
  q: Queryable,
  keys: KeyRing,
  req: Omit<NewActivation, "locale">,
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const token = randomSecret(32);
  const id = randomBytes(16).toString("hex");
  const { rows } = await q.query<{ expires_at: Date }>(
    `INSERT INTO users.activations (id, user_id, key, value, token_hash, client_id, entrypoint_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))
     RETURNING expires_at`,
    [
      id,
      req.userId,
      req.key,
      req.value,
      keys.mac(ACTIVATION_MAC)(token),
      req.clientId,
      req.entrypointId,
      ACTIVATION_TTL_SECONDS,
    ],
  );
  return { id, token, expiresAt: new Date(rows[0]!.expires_at) };
}

/** The identifier and origin of a user's latest activation: where a resend goes. */
export async function latestActivation(
  q: Queryable,
  userId: string,
): Promise<{ key: "email" | "phone_number"; value: string; clientId: string; entrypointId: string } | undefined> {
  const r = await q.query<{ key: "email" | "phone_number"; value: string; client_id: string; entrypoint_id: string }>(
    `SELECT key, value, client_id, entrypoint_id FROM users.activations WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1`,
    [userId],
  );
  const row = r.rows[0];
  return row && { key: row.key, value: row.value, clientId: row.client_id, entrypointId: row.entrypoint_id };
}

/** A new activation link to the identifier of the latest one (the 412's resend for an account awaiting activation). */
export async function resendActivation(
  q: Queryable,
  deps: ActivationDeps,
  userId: string,
  locale: DeliveryLocale,
): Promise<boolean> {
  const latest = await latestActivation(q, userId);
  if (!latest) return false;
  await issueActivation(q, deps, { userId, ...latest, locale });
  return true;
}
