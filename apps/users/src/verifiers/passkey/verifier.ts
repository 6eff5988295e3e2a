import { domainError } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { KeyRing } from "@gatehouse/secrets";
import { takeSignInChallenge } from "../../passkeys/challenges.ts";
import type { RelyingParty } from "../../passkeys/relying-party.ts";
import type { PasskeyStore } from "../../passkeys/store.ts";
import { userHandle } from "../../passkeys/user-handle.ts";
import { webauthn } from "../../passkeys/webauthn-lib.ts";
import type { UserStore } from "../../users/store.ts";
import { clearAccountAttempts, countLoginAttempt, type LoginLimits } from "../throttle.ts";
import { throttleAccount, type CredentialVerifier } from "../verifier.ts";

export interface PasskeyProof {
  kind: "passkey";
  /** The token answered with the request options (its challenge). */
  token: string;
  credential: AuthenticationResponseJSON;
}

export interface PasskeyVerifierDeps {
  users: UserStore;
  passkeys: PasskeyStore;
  kv: Kv;
  keys: KeyRing;
  rp: RelyingParty;
  /** Its limits: the login throttles (../throttle.ts), like a password's. */
  limits: LoginLimits;
}

const refuse = () => domainError("INVALID_CREDENTIALS");

/**
 * A passkey assertion (contract section 12), checked with
 * `@simplewebauthn/server` against a challenge taken once (bound to the
 * caller's entry point), the relying party's id and origins, user
 * verification, the stored public key and counter (it must go up unless the
 * authenticator keeps none). The credential names its user; an identifier
 * sent with it must be that user's. Every failure is INVALID_CREDENTIALS,
 * like a wrong password, and counts in the login throttles under the user
 * (an unknown credential under itself). A user-verified passkey is two
 * factors: the login asks for no other.
 */
export function passkeyVerifier(deps: PasskeyVerifierDeps): CredentialVerifier<PasskeyProof> {
  return {
    kind: "passkey",
    async verify(proof, attempt) {
      const credentialId = typeof proof.credential?.id === "string" ? proof.credential.id : "";
      const passkey = credentialId ? await deps.passkeys.byCredentialId(credentialId) : undefined;
      const user = passkey && (await deps.users.byId(passkey.userId));
      const account = user
        ? throttleAccount({ ...attempt, id: undefined, user })
        : `passkey:${credentialId.slice(0, 64)}`;
      await countLoginAttempt(deps.kv, deps.limits, account!, attempt.clientAddress);
      const bound = await takeSignInChallenge(deps.keys, deps.kv, proof.token);
      if (!bound || !passkey || !user) throw refuse();
      if (attempt.entrypoint && bound.entrypointId !== attempt.entrypoint.id) throw refuse();
      if (attempt.id && !user.identifiers.some((i) => i.key === attempt.id!.key && i.value === attempt.id!.value))
        throw refuse();
      if (attempt.user && attempt.user.id !== user.id) throw refuse();
      const handle = proof.credential.response?.userHandle;
      if (handle && handle !== Buffer.from(userHandle(deps.keys, user.id)).toString("base64url")) throw refuse();
      const { verifyAuthenticationResponse } = await webauthn();
      let result;
      try {
        result = await verifyAuthenticationResponse({
          response: proof.credential,
          expectedChallenge: bound.challenge,
          expectedOrigin: deps.rp.origins,
          expectedRPID: deps.rp.id,
          requireUserVerification: true,
          credential: {
            id: passkey.credentialId,
            publicKey: passkey.publicKey,
            counter: passkey.counter,
            transports: passkey.transports as never,
          },
        });
      } catch {
        throw refuse();
      }
      if (!result.verified || !result.authenticationInfo.userVerified) throw refuse();
      const { newCounter, credentialBackedUp } = result.authenticationInfo;
      // The counter as read: a second use of the same assertion racing this one loses here.
      if (
        !(await deps.passkeys.recordUse(passkey.id, passkey.counter, {
          counter: newCounter,
          backedUp: credentialBackedUp,
        }))
      )
        throw refuse();
      await clearAccountAttempts(deps.kv, account!, attempt.clientAddress);
      return { user, secondFactor: true };
    },
  };
}
