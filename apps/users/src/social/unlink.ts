import type { AuditContext, AuditLog } from "@gatehouse/admin";
import { domainError } from "@gatehouse/errors";
import type { Transactional } from "../transactional.ts";
import type { IdentityStore } from "../verifiers/upstream/store.ts";

export type UnlinkStores = { identities: Pick<IdentityStore, "unlink">; audit: Pick<AuditLog, "record"> };

/**
 * Unlinks the user's account at a provider (contract section 11), by the
 * user or by an operator: the removal and its audit entry commit together;
 * IDENTITY_NOT_LINKED when there was none. Sessions stay.
 */
export async function unlinkIdentity(
  data: Transactional<UnlinkStores>,
  userId: string,
  provider: string,
  who: AuditContext,
): Promise<void> {
  await data.tx(async (s) => {
    if (!(await s.identities.unlink(userId, provider)))
      throw domainError("IDENTITY_NOT_LINKED", undefined, { metadata: { provider } });
    await s.audit.record({ ...who, action: "user.identity.unlink", target: userId, details: { provider } });
  });
}
