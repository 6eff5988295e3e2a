import { domainError } from "@gatehouse/errors";
import type { CredentialVerifier } from "../verifier.ts";
import { checkFactor, type FactorDeps } from "./factor.ts";
import { clearUserGuesses, countUserGuess } from "./limits.ts";

/** A TOTP code (or a recovery code) of a user whose TOTP is on. */
export interface TotpProof {
  kind: "totp";
  code: string;
  /** Where the code travels in the public JSON: a wrong one's violation names it. */
  field: string;
  /** Guesses left on the login's MFA token, told with a wrong code. */
  attemptsLeft?: number;
}

/**
 * The second factor of a known user (the login's MFA step, step-up,
 * turning TOTP off): each guess is counted per user BEFORE it is checked
 * (limits.ts); a TOTP time step works once and a recovery code is spent. A
 * wrong code is MFA_CODE_INVALID. A code names nobody: without a user it
 * proves nothing.
 */
export function totpVerifier(deps: FactorDeps): CredentialVerifier<TotpProof> {
  return {
    kind: "totp",
    async verify(proof, attempt) {
      const user = attempt.user;
      if (!user) throw domainError("INVALID_CREDENTIALS");
      await countUserGuess(deps, user.id);
      const used = await checkFactor(deps, await deps.data.totp.state(user.id), proof.code);
      if (!used) {
        const metadata: Record<string, string> =
          proof.attemptsLeft === undefined ? {} : { attempts_left: String(proof.attemptsLeft) };
        throw domainError("MFA_CODE_INVALID", undefined, {
          metadata,
          violations: [{ field: proof.field, code: "invalid_value" }],
        });
      }
      await clearUserGuesses(deps, user.id);
      return { user, secondFactor: true };
    },
  };
}
