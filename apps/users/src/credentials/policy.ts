import { normalizePassword, passwordProblem, type BreachCheck, type PasswordContext } from "@gatehouse/abuse";
import type { UserRecord } from "../users/record.ts";

export { passwordProblem };

/** The breached-password check (PWNED_PASSWORDS_URL); absent: not checked. */
export interface BreachDeps {
  breached?: BreachCheck;
}

/**
 * The last rule of the password policy, after passwordProblem's (which the
 * validators apply with the request's other fields): a password found in
 * breaches is weak. The service unreachable or slow counts as not found.
 */
export async function isBreached(deps: BreachDeps, password: string): Promise<boolean> {
  return (await deps.breached?.(normalizePassword(password))) === true;
}

/** What a user's password must not contain: their email's local part and phone digits, current and pending. */
export function contextOf(user: UserRecord, more: PasswordContext = {}): PasswordContext {
  const values = (key: string) =>
    user.identifiers.filter((i) => i.key === key).flatMap((i) => [i.value, i.pendingValue ?? undefined]);
  return {
    emails: [...values("email"), ...(more.emails ?? [])],
    phones: [...values("phone_number"), ...(more.phones ?? [])],
  };
}
