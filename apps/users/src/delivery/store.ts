import type { Queryable } from "@gatehouse/db";

/** Whether a delivery's row committed and is still live, across the three tables that queue deliveries. */
export interface DeliveryStore {
  /** undefined: no such row (not committed yet, or rolled back); else whether it is unused, not superseded and not expired. */
  isLive(deliveryId: string): Promise<boolean | undefined>;
}

/** A delivery id is the id of its row in one of users.confirmations, users.access_codes and users.activations. */
export function deliveryStore(q: Queryable): DeliveryStore {
  return {
    async isLive(deliveryId) {
      const r = await q.query<{ live: boolean }>(
        `SELECT (used_at IS NULL AND superseded_at IS NULL AND expires_at > now()) AS live FROM users.confirmations WHERE id = $1
         UNION ALL
         SELECT (used_at IS NULL AND superseded_at IS NULL AND expires_at > now()) FROM users.access_codes WHERE id = $1
         UNION ALL
         SELECT (used_at IS NULL AND superseded_at IS NULL AND expires_at > now()) FROM users.activations WHERE id = $1`,
        [deliveryId],
      );
      return r.rows[0]?.live;
    },
  };
}
