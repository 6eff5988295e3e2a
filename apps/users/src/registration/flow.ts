import type { AuthorizationRequest } from "@gatehouse/proto";
import type { KeyRing } from "@gatehouse/secrets";
import { authorizationDigest, newFlowId, sealFlowToken } from "../flow/token.ts";
import type { ResolvedEntrypoint } from "../ports.ts";
import type { Registered } from "./register.ts";

/**
 * The flow token of a hosted registration: the new user is authenticated by
 * having just registered in this flow (auth_time = now); the codes of the
 * registration were just sent, so the confirmation page does not send more.
 */
export function registrationFlowToken(
  keys: KeyRing,
  done: Registered,
  resolved: ResolvedEntrypoint,
  authorization: AuthorizationRequest,
): string {
  return sealFlowToken(keys, {
    flowId: newFlowId(),
    userId: done.user.id,
    clientId: resolved.clientId,
    entrypointId: resolved.entrypoint.id,
    authorization: authorizationDigest(authorization),
    authTime: Date.now(),
    mfaPassed: false,
    codeSent: done.pendingConfirmation.length > 0,
  });
}
