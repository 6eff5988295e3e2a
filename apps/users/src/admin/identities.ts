import type { AuditContext } from "@gatehouse/admin";
import { unlinkIdentity } from "../social/unlink.ts";
import { findAccount } from "./accounts.ts";
import type { AdminDeps } from "./actions.ts";

/** An operator unlinks a user's account at a provider (contract section 11), audited as `user.identity.unlink`. */
export async function unlinkUserIdentity(deps: AdminDeps, id: string, provider: string, who: AuditContext) {
  const found = await findAccount(deps.data, id);
  await unlinkIdentity(deps.data, found.user.id, provider, who);
}
