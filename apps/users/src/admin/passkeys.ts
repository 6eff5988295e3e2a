import type { AuditContext } from "@gatehouse/admin";
import { findAccount, type Account } from "./accounts.ts";
import type { AdminDeps } from "./actions.ts";

/**
 * Removes every passkey of a user (contract section 12; a lost device, an
 * account recovery), audited with how many, in one transaction. Sessions
 * stay: ending them is the log-out action's.
 */
export async function removePasskeys(
  deps: AdminDeps,
  id: string,
  who: AuditContext,
): Promise<{ account: Account; removed: number }> {
  return deps.data.tx(async (s) => {
    const found = await findAccount(s, id, true);
    const removed = (await s.passkeys.ofUser(found.user.id)).length;
    await s.passkeys.erase(found.user.id);
    await s.audit.record({ ...who, action: "user.passkeys.remove", target: found.user.id, details: { removed } });
    return { account: await findAccount(s, found.user.id), removed };
  });
}
