import { domainError } from "@gatehouse/errors";
import type { AuthorizationCodes } from "../codes/authorization-codes.ts";
import { constantTimeEqual, sha256Base64url } from "@gatehouse/secrets";
import type { DeviceAuthorizations } from "./devices.ts";
import { formatUserCode, normalizeUserCode } from "./user-code.ts";
import { countWrongUserCode, refuseWhenOverLimit } from "./wrong-codes.ts";

// The person's side of the grant (the hosted /device page): enter the code, sign in, decide.

const invalid = () => domainError("DEVICE_CODE_INVALID", "the user code is not waiting for a decision");

/** The undecided authorization of a typed user code; a code that is none counts against the address. */
export async function lookUpUserCode(devices: DeviceAuthorizations, typed: string, clientAddress: string) {
  await refuseWhenOverLimit(devices, clientAddress);
  const code = normalizeUserCode(typed);
  const found = code === undefined ? undefined : await devices.store.byUserCodeHash(devices.hashUserCode(code));
  if (!code || !found || found.status !== "pending" || found.expiresAt <= devices.now()) {
    await countWrongUserCode(devices, clientAddress);
    return { found: false as const };
  }
  return {
    found: true as const,
    userCode: formatUserCode(code),
    clientId: found.clientId,
    applicationId: found.applicationId,
    entrypointId: found.entrypointId,
    scope: found.scope,
    sourceId: found.sourceId,
  };
}

const hashOf = (devices: DeviceAuthorizations, typed: string) => {
  const code = normalizeUserCode(typed);
  if (!code) throw invalid();
  return devices.hashUserCode(code);
};

// RFC 7636 section 4.1.
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * The hosted login the /device page started has ended in an authorization
 * code: redeem it (the device's client, the exact redirect URI, the PKCE
 * verifier) and record who signed in. Nothing is decided yet.
 */
export async function signInDevice(
  deps: { devices: DeviceAuthorizations; codes: AuthorizationCodes },
  req: { userCode: string; code: string; codeVerifier: string; redirectUri: string },
) {
  const { devices } = deps;
  const hash = hashOf(devices, req.userCode);
  const device = await devices.store.byUserCodeHash(hash);
  if (!device || device.status !== "pending" || device.expiresAt <= devices.now()) throw invalid();
  const redemption = await deps.codes.redeem(req.code, device.clientId);
  if ("replayOf" in redemption) throw domainError("INVALID_GRANT", "authorization code was already used");
  const { grant, sid } = redemption;
  if (grant.redirectUri !== req.redirectUri) throw domainError("INVALID_GRANT", "redirect_uri does not match");
  if (!VERIFIER.test(req.codeVerifier) || !constantTimeEqual(sha256Base64url(req.codeVerifier), grant.codeChallenge))
    throw domainError("INVALID_GRANT", "code_verifier does not match the code_challenge");
  if (!(await devices.store.signIn(hash, { userId: grant.userId, authTime: grant.authTime, sid }, devices.now())))
    throw invalid();
  return { userId: grant.userId };
}

/** The person who signed in for the code approves or denies it, once. */
export async function decideDevice(
  devices: DeviceAuthorizations,
  req: { userCode: string; userId: string; approve: boolean },
) {
  if (!req.userId) throw invalid();
  if (!(await devices.store.decide(hashOf(devices, req.userCode), req.userId, req.approve, devices.now())))
    throw invalid();
}
