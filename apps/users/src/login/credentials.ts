import type { Db } from "@gatehouse/db";
import { domainError } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";
import type { Passwords } from "../credentials/passwords.ts";
import { canonicalEmail } from "../users/identifiers.ts";
import { userStore, type UserRecord } from "../users/store.ts";
import { clearAccountAttempts, countLoginAttempt, type LoginLimits } from "./throttle.ts";

export interface CredentialDeps {
  db: Db;
  kv: Kv;
  passwords: Passwords;
  limits: LoginLimits;
}

/**
 * The login's first step: email and password behind the throttles (equal
 * cost and the same error for unknown users). A password hashed with other
 * parameters is rehashed.
 */
export async function checkCredentials(
  deps: CredentialDeps,
  req: { email: string; password: string; clientAddress: string },
): Promise<UserRecord> {
  const email = canonicalEmail(req.email);
  await countLoginAttempt(deps.kv, deps.limits, email, req.clientAddress);

  const store = userStore(deps.db);
  const user = await store.byIdentifier("email", email);
  // Passwordless users cannot log in with a password; they cost a dummy verify like unknown users.
  const ok = await deps.passwords.verify(user?.passwordHash ?? undefined, req.password);
  if (!user || !ok) throw domainError("INVALID_CREDENTIALS");

  await clearAccountAttempts(deps.kv, email, req.clientAddress);
  if (deps.passwords.needsRehash(user.passwordHash!)) {
    const rehashed = await deps.passwords.hash(req.password);
    await store.setPasswordHash(user.id, rehashed);
    user.passwordHash = rehashed;
  }
  return user;
}
