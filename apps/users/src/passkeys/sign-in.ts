import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import type { KeyRing } from "@gatehouse/secrets";
import { newChallenge, sealSignInChallenge } from "./challenges.ts";
import type { RelyingParty } from "./relying-party.ts";
import { webauthn } from "./webauthn-lib.ts";

/**
 * Request options of a passkey sign-in (contract section 12): no
 * `allowCredentials` (a discoverable credential names its user), user
 * verification required; the challenge sealed for 5 minutes in the token
 * answered with it, bound to the caller's application and entry point.
 */
export async function signInOptions(
  deps: { keys: KeyRing; rp: RelyingParty },
  bound: { clientId: string; entrypointId: string },
): Promise<{ publicKey: PublicKeyCredentialRequestOptionsJSON; token: string }> {
  const { generateAuthenticationOptions } = await webauthn();
  const publicKey = await generateAuthenticationOptions({
    rpID: deps.rp.id,
    challenge: Buffer.from(newChallenge(), "base64url"),
    userVerification: "required",
    timeout: 300_000,
    allowCredentials: [],
  });
  const token = sealSignInChallenge(deps.keys, { challenge: publicKey.challenge, ...bound });
  return { publicKey, token };
}
