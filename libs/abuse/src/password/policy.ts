import { isCommonPassword } from "./common.ts";

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Why a password is refused: its length, or `password_weak` (common, or holds the user's email or phone). */
export type PasswordProblem = "too_short" | "too_long" | "password_weak";

/** What the password must not contain: the user's email (its local part) and phone (its digits). */
export interface PasswordContext {
  emails?: (string | undefined)[];
  phones?: (string | undefined)[];
}

/**
 * The one form a password is kept and compared in: Unicode NFKC, so the same
 * password typed in two normalization forms (a composed "é" and "e" + accent,
 * full-width digits) is one password (NIST SP 800-63B 5.1.1.2).
 */
export function normalizePassword(password: string): string {
  return password.normalize("NFKC");
}

// A local part this short would refuse half the passwords that hold its letters.
const MIN_LOCAL_PART = 3;
// The subscriber part of most numbering plans: a password holding it holds the number.
const PHONE_TAIL = 8;

function containsEmail(lower: string, email: string | undefined): boolean {
  const at = email?.lastIndexOf("@") ?? -1;
  const local = at > 0 ? email!.slice(0, at).toLowerCase() : "";
  return local.length >= MIN_LOCAL_PART && lower.includes(local);
}

function containsPhone(password: string, phone: string | undefined): boolean {
  const digits = phone?.replace(/\D/g, "") ?? "";
  if (digits.length < PHONE_TAIL) return false;
  return password.includes(digits) || password.includes(digits.slice(-PHONE_TAIL));
}

/**
 * The password rules every place that sets a password applies (NIST SP
 * 800-63B, contract section 17): 8 to 128 characters after NFKC, no
 * composition rules; not one of the 10,000 most common passwords; not
 * holding the local part of the user's email or the user's phone digits.
 * The breached-password check (pwned.ts) comes after these, being remote.
 */
export function passwordProblem(password: string, context: PasswordContext = {}): PasswordProblem | undefined {
  const normal = normalizePassword(password);
  const length = [...normal].length;
  if (length < PASSWORD_MIN) return "too_short";
  if (length > PASSWORD_MAX) return "too_long";
  if (isCommonPassword(normal)) return "password_weak";
  const lower = normal.toLowerCase();
  if (context.emails?.some((e) => containsEmail(lower, e))) return "password_weak";
  if (context.phones?.some((p) => containsPhone(normal, p))) return "password_weak";
  return undefined;
}
