import type { Queryable } from "@gatehouse/db";
import type { StillWanted } from "@gatehouse/jobs";

/** How long the worker waits for a delivery's transaction to commit before giving it up as rolled back. */
const COMMIT_GRACE_MS = 60_000;

/**
 * The worker's question for a delivery enqueued before commit: send when its
 * confirmation (or sign-in code, or activation link) is committed and still
 * live, wait while it may still commit, drop when it was rolled back, used,
 * superseded or expired. A delivery id is the id of its row in one of the three tables.
 */
export function confirmationStillWanted(q: Queryable): StillWanted {
  return async (deliveryId, info) => {
    const r = await q.query<{ live: boolean }>(
      `SELECT (used_at IS NULL AND superseded_at IS NULL AND expires_at > now()) AS live FROM users.confirmations WHERE id = $1
       UNION ALL
       SELECT (used_at IS NULL AND superseded_at IS NULL AND expires_at > now()) FROM users.access_codes WHERE id = $1
       UNION ALL
       SELECT (used_at IS NULL AND superseded_at IS NULL AND expires_at > now()) FROM users.activations WHERE id = $1`,
      [deliveryId],
    );
    const row = r.rows[0];
    if (!row) return Date.now() - info.enqueuedAt < COMMIT_GRACE_MS ? "wait" : "drop";
    return row.live ? "send" : "drop";
  };
}
