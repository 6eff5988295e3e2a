import { normalizePassword } from "@gatehouse/abuse";
import { domainError } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";
import type { Passwords } from "../../credentials/passwords.ts";
import type { UserRecord } from "../../users/record.ts";
import type { UserStore } from "../../users/store.ts";
import { clearAccountAttempts, countLoginAttempt, type LoginLimits } from "../throttle.ts";
import { throttleAccount, type CredentialVerifier } from "../verifier.ts";

export interface PasswordProof {
  kind: "password";
  password: string;
}

export interface PasswordDeps {
  users: UserStore;
  kv: Kv;
  passwords: Passwords;
  /** Its limits: the login throttles (../throttle.ts), all three counters. */
  limits: LoginLimits;
}

/**
 * The password, behind the login throttles, at equal cost and with the same
 * error for unknown users and passwordless ones (a dummy verify). Its user is
 * the holder of the identifier typed (a login) or the user already known
 * (re-authentication). A hash made with other parameters, or by another
 * hasher (an import), or of the password's typed form instead of its NFKC,
 * is rehashed once the password is right. At a login, an
 * account awaiting activation (assisted registration) has no password: after
 * the same cost it is answered whatever was typed, and the login's
 * confirmation step stops it at 412 (contract section 8).
 */
export function passwordVerifier(deps: PasswordDeps): CredentialVerifier<PasswordProof> {
  async function rehashIfStale(user: UserRecord, password: string, typedForm: boolean): Promise<void> {
    const stale = user.passwordHash!;
    if (!typedForm && !deps.passwords.needsRehash(stale)) return;
    const rehashed = await deps.passwords.hash(password);
    // Only over the hash just verified: two logins at once rehash once, and a password changed meanwhile stays.
    await deps.users.setPasswordHash(user.id, rehashed, stale);
    user.passwordHash = rehashed;
  }

  return {
    kind: "password",
    async verify(proof, attempt) {
      const account = throttleAccount(attempt);
      if (account === undefined) throw domainError("INVALID_CREDENTIALS");
      await countLoginAttempt(deps.kv, deps.limits, account, attempt.clientAddress);
      const user = attempt.user ?? (await deps.users.byIdentifier(attempt.id!.key, attempt.id!.value));
      // NFKC first (every hash made since section 17); a hash of the typed form (made before, or imported) matches
      // the second compare and is rehashed in NFKC. A password NFKC leaves as it is costs one compare.
      const normal = normalizePassword(proof.password);
      const phc = user?.passwordHash ?? undefined;
      let ok = await deps.passwords.verify(phc, normal);
      const typedForm = !ok && normal !== proof.password && (await deps.passwords.verify(phc, proof.password));
      ok ||= typedForm;
      if (!attempt.user && user?.awaitingActivation) return { user, secondFactor: false };
      if (!user || !ok) throw domainError("INVALID_CREDENTIALS");
      await clearAccountAttempts(deps.kv, account, attempt.clientAddress);
      await rehashIfStale(user, proof.password, typedForm);
      return { user, secondFactor: false };
    },
  };
}
