import type { Db } from "@gatehouse/db";
import { domainError } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";
import type { Passwords } from "../../credentials/passwords.ts";
import { userStore, type UserRecord } from "../../users/store.ts";
import { clearAccountAttempts, countLoginAttempt, type LoginLimits } from "../throttle.ts";

export interface CredentialDeps {
  db: Db;
  kv: Kv;
  passwords: Passwords;
  limits: LoginLimits;
}

/** Who is signing in: the identifier typed, in canonical form (email, or the phone of an entry point whose main id it is). */
export interface LoginIdentifier {
  key: "email" | "phone_number";
  value: string;
}

/**
 * The login's credentials step, with a password: the identifier and password
 * behind the throttles (equal cost and the same error for unknown users). A
 * password hashed with other parameters is rehashed. An account awaiting
 * activation (assisted registration) has no password: after the same cost it
 * goes on to its 412 whatever was typed (contract section 8: "until then
 * login answers 412"); nothing but the activation link is sent then.
 */
export async function checkCredentials(
  deps: CredentialDeps,
  req: { id: LoginIdentifier; password: string; clientAddress: string },
): Promise<UserRecord> {
  await countLoginAttempt(deps.kv, deps.limits, req.id.value, req.clientAddress);

  const store = userStore(deps.db);
  const user = await store.byIdentifier(req.id.key, req.id.value);
  // Passwordless users cannot log in with a password; they cost a dummy verify like unknown users.
  const ok = await deps.passwords.verify(user?.passwordHash ?? undefined, req.password);
  if (user?.awaitingActivation) return user;
  if (!user || !ok) throw domainError("INVALID_CREDENTIALS");

  await clearAccountAttempts(deps.kv, req.id.value, req.clientAddress);
  if (deps.passwords.needsRehash(user.passwordHash!)) {
    const rehashed = await deps.passwords.hash(req.password);
    await store.setPasswordHash(user.id, rehashed);
    user.passwordHash = rehashed;
  }
  return user;
}
