import type { AuthorizationRequest } from "@gatehouse/proto";
import type { KeyRing } from "@gatehouse/secrets";
import { authorizationDigest } from "../../flow/token.ts";
import type { UserRecord } from "../../users/record.ts";
import { isUniqueViolation } from "../../users/store.ts";
import type { IdentityStore } from "./store.ts";
import { openUpstream, upstreamFailed, type PendingIdentity } from "./tokens.ts";

/**
 * Links the identity of an UPSTREAM_LINK_REQUIRED token to the user a login
 * just proved (password or emailed code), only when that user holds the
 * identity's email and the token is for this entry point and authorization
 * request; else the login fails and nothing is linked.
 */
export async function linkAfterProof(
  deps: { keys: KeyRing; identities: Pick<IdentityStore, "link"> },
  token: string,
  user: UserRecord,
  entrypointId: string,
  authorization: AuthorizationRequest | undefined,
): Promise<void> {
  const p = openUpstream<PendingIdentity>(deps.keys, "upstream-link", token);
  const digest = authorization ? authorizationDigest(authorization) : "";
  const email = user.identifiers.find((i) => i.key === "email")?.value;
  if (p.entrypointId !== entrypointId || p.authorization !== digest || email !== p.identity.email)
    throw upstreamFailed("invalid_state");
  try {
    await deps.identities.link(user.id, p.identity);
  } catch (e) {
    if (isUniqueViolation(e)) throw upstreamFailed("already_linked");
    throw e;
  }
}
