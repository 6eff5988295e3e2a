import type { AuthorizationRequest } from "@gatehouse/proto";
import type { KeyRing } from "@gatehouse/secrets";
import { authorizationDigest } from "../../flow/token.ts";
import type { UserRecord } from "../../users/record.ts";
import { isUniqueViolation } from "../../users/store.ts";
import type { AuditLog } from "@gatehouse/admin";
import type { Transactional } from "../../transactional.ts";
import type { IdentityStore, LinkedIdentity } from "./store.ts";
import { openUpstream, upstreamFailed, type PendingIdentity } from "./tokens.ts";

export type LinkStores = { identities: Pick<IdentityStore, "link">; audit: Pick<AuditLog, "record"> };

/**
 * Links the identity to the user, audited as `user.identity.link` with how
 * the account was proven: the link and its entry commit together. A taken
 * identity fails the sign-in as already_linked.
 */
export async function linkIdentity(
  data: Transactional<LinkStores>,
  userId: string,
  identity: LinkedIdentity,
  how: { via: "trusted_email" | "proof"; address: string },
): Promise<void> {
  try {
    await data.tx(async (s) => {
      await s.identities.link(userId, identity);
      await s.audit.record({
        actor: `user:${userId}`,
        action: "user.identity.link",
        target: userId,
        address: how.address,
        details: { provider: identity.provider, via: how.via },
      });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw upstreamFailed("already_linked");
    throw e;
  }
}

/**
 * Links the identity of an UPSTREAM_LINK_REQUIRED token to the user a login
 * just proved (password or emailed code), only when that user holds the
 * identity's email and the token is for this entry point and authorization
 * request; else the login fails and nothing is linked.
 */
export async function linkAfterProof(
  deps: { keys: KeyRing; data: Transactional<LinkStores> },
  token: string,
  user: UserRecord,
  entrypointId: string,
  authorization: AuthorizationRequest | undefined,
  address: string,
): Promise<void> {
  const p = openUpstream<PendingIdentity>(deps.keys, "upstream-link", token);
  const digest = authorization ? authorizationDigest(authorization) : "";
  const email = user.identifiers.find((i) => i.key === "email")?.value;
  if (p.entrypointId !== entrypointId || p.authorization !== digest || email !== p.identity.email)
    throw upstreamFailed("invalid_state");
  await linkIdentity(deps.data, user.id, p.identity, { via: "proof", address });
}
