import type { Db } from "@gatehouse/db";
import { domainError } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";
import type { Entrypoint } from "@gatehouse/proto";
import type { Passwords } from "../credentials/passwords.ts";
import { canonicalEmail, isIdKey, type IdKey } from "../users/identifiers.ts";
import { userStore, type UserRecord } from "../users/store.ts";
import { clearAccountAttempts, countLoginAttempt, type LoginLimits } from "./throttle.ts";

export interface LoginDeps {
  db: Db;
  kv: Kv;
  passwords: Passwords;
  limits: LoginLimits;
  /**
   * Runs when the password is right but identifiers are unconfirmed (412),
   * to resend a code; returns extra metadata of the USER_UNCONFIRMED error.
   */
  onUnconfirmed?: (user: UserRecord, unconfirmed: IdKey[]) => Promise<Record<string, string>>;
}

export interface LoginRequest {
  email: string;
  password: string;
  entrypoint: Entrypoint;
  /** End user's IP address, for the per-address limit. */
  clientAddress: string;
}

export interface LoggedIn {
  user: UserRecord;
  /** Mandatory data fields of the entry point the user has not filled in (fca). */
  missingFields: string[];
}

/** Identifier keys that must be confirmed to log in through this entry point: the main id and the email. */
function keysToBeConfirmed(ep: Entrypoint): IdKey[] {
  const ids = ep.fields.filter((f) => f.type === "id");
  const main = ids.find((f) => f.main) ?? (ids.length === 1 ? ids[0] : undefined);
  return ids
    .filter((f) => f.requiresConfirmation && (f === main || f.key === "email"))
    .map((f) => f.key)
    .filter(isIdKey);
}

/**
 * Checks email and password (equal cost for unknown users), the throttles
 * and the confirmation of the main identifier. Opening the session is the
 * caller's job.
 */
export async function login(deps: LoginDeps, req: LoginRequest): Promise<LoggedIn> {
  const email = canonicalEmail(req.email);
  await countLoginAttempt(deps.kv, deps.limits, email, req.clientAddress);

  const store = userStore(deps.db);
  const user = await store.byIdentifier("email", email);
  // Passwordless users cannot log in with a password; they cost a dummy verify like unknown users.
  const ok = await deps.passwords.verify(user?.passwordHash ?? undefined, req.password);
  if (!user || !ok) throw domainError("INVALID_CREDENTIALS");
  // Issue 12 (admin lock): checked only once the password is right, so the answer does not tell a guesser the account is locked.
  if (user.lockedAt) throw domainError("ACCOUNT_LOCKED");

  await clearAccountAttempts(deps.kv, email, req.clientAddress);
  if (deps.passwords.needsRehash(user.passwordHash!)) {
    const rehashed = await deps.passwords.hash(req.password);
    await store.setPasswordHash(user.id, rehashed);
    user.passwordHash = rehashed;
  }

  const unconfirmed = keysToBeConfirmed(req.entrypoint).filter((key) => {
    const id = user.identifiers.find((i) => i.key === key);
    return !id?.confirmed;
  });
  if (unconfirmed.length) {
    const extra = deps.onUnconfirmed ? await deps.onUnconfirmed(user, unconfirmed) : {};
    throw domainError("USER_UNCONFIRMED", undefined, { metadata: { ...extra, user_id: user.id, keys: unconfirmed.join(",") } });
  }

  return { user, missingFields: missingMandatoryFields(req.entrypoint, user) };
}

/** Mandatory data fields of the entry point the user has not filled in (fca). */
export function missingMandatoryFields(ep: Entrypoint, user: UserRecord): string[] {
  return ep.fields
    .filter((f) => f.type === "field" && (f.mandatory ?? true))
    .map((f) => f.key)
    .filter((key) => {
      const v = user.datas[key];
      return v === undefined || v === null || v === "";
    });
}
