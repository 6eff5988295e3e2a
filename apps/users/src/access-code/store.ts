import { randomBytes } from "node:crypto";
import type { Queryable } from "@gatehouse/db";
import { domainError } from "@gatehouse/errors";
import { sealJobSecrets, type DeliveryLocale } from "@gatehouse/jobs";
import { constantTimeEqual, randomDigits, type KeyRing } from "@gatehouse/secrets";
import type { Enqueue } from "../confirmation/issue.ts";
import type { AccessCodeOptions } from "./options.ts";

/** MAC label of sign-in codes: stored only as HMAC-SHA256 under a key derived for this purpose. */
export const ACCESS_CODE_MAC = "access-code";

export interface AccessCodeDeps {
  keys: KeyRing;
  enqueue: Enqueue;
  accessCodes: AccessCodeOptions;
}

export interface NewAccessCode {
  userId: string;
  key: "email" | "phone_number";
  value: string;
  locale: DeliveryLocale;
  clientId: string;
  entrypointId: string;
}

/**
 * Stores a new 6-digit sign-in code (its MAC only) and queues its delivery,
 * inside the caller's transaction (a refused enqueue rolls it back). Earlier
 * live codes stay live, like a confirmation resend: the user may type the
 * code of either message; every guess spends a try of each.
 */
export async function issueAccessCode(q: Queryable, deps: AccessCodeDeps, req: NewAccessCode): Promise<void> {
  const code = randomDigits(6);
  const id = randomBytes(16).toString("hex");
  await q.query(
    `INSERT INTO users.access_codes (id, user_id, key, value, code_hash, client_id, entrypoint_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`,
    [
      id,
      req.userId,
      req.key,
      req.value,
      deps.keys.mac(ACCESS_CODE_MAC)(`${id}:${code}`),
      req.clientId,
      req.entrypointId,
      deps.accessCodes.ttlSeconds,
    ],
  );
  try {
    await deps.enqueue(
      {
        deliveryId: id,
        userId: req.userId,
        channel: req.key === "email" ? "email" : "sms",
        to: req.value,
        locale: req.locale,
        purpose: "access_code",
        sealedSecrets: sealJobSecrets(deps.keys, id, { code, linkToken: "" }),
      },
      q,
    );
  } catch (err) {
    const failure = domainError("CONFIRMATION_NOT_QUEUED", undefined, { metadata: { key: req.key } });
    failure.cause = err;
    throw failure;
  }
}

interface AccessCodeRow {
  id: string;
  code_hash: string;
  created_at: Date;
}

const LIVE = "used_at IS NULL AND superseded_at IS NULL AND expires_at > now() AND attempts < $3";

/**
 * One guess at the sign-in codes of (user, key): a try of every live code is
 * spent first (committed on its own, so wrong guesses count even though the
 * login fails), then the code is compared with each in constant time. A
 * match is used at once (the first `used_at` wins under concurrency) and its
 * siblings die. `allowed` false spends the try without any chance to match
 * (a wrong `useForValidation` value fails like a wrong code). An unknown user
 * (`userId` "") costs the same statement.
 */
export async function useAccessCode(
  q: Queryable,
  deps: { keys: KeyRing; accessCodes: AccessCodeOptions },
  req: { userId: string; key: string; code: string; allowed: boolean },
): Promise<boolean> {
  const r = await q.query<AccessCodeRow>(
    `UPDATE users.access_codes SET attempts = attempts + 1 WHERE user_id = $1 AND key = $2 AND ${LIVE} RETURNING id, code_hash, created_at`,
    [req.userId, req.key, deps.accessCodes.maxAttempts],
  );
  const mac = deps.keys.mac(ACCESS_CODE_MAC);
  let match: AccessCodeRow | undefined;
  for (const row of r.rows.sort((a, b) => b.created_at.getTime() - a.created_at.getTime())) {
    if (constantTimeEqual(mac(`${row.id}:${req.code}`), row.code_hash) && !match) match = row;
  }
  if (!match || !req.allowed) return false;
  const used = await q.query(
    `UPDATE users.access_codes SET used_at = now() WHERE id = $1 AND used_at IS NULL AND superseded_at IS NULL RETURNING id`,
    [match.id],
  );
  if (used.rowCount === 0) return false;
  await q.query(
    `UPDATE users.access_codes SET superseded_at = now() WHERE user_id = $1 AND key = $2 AND used_at IS NULL AND superseded_at IS NULL`,
    [req.userId, req.key],
  );
  return true;
}
