import type { Entrypoint } from "@gatehouse/proto";
import type { UserRecord } from "../users/record.ts";

/** Who is signing in: the identifier typed, in canonical form (email, or the phone of an entry point whose main id it is). */
export interface LoginIdentifier {
  key: "email" | "phone_number";
  value: string;
}

/**
 * The circumstances of one proof. A login names the identifier typed (`id`),
 * or nothing when the proof names its user itself (a passkey, an upstream
 * identity); MFA, step-up and re-authentication name the user already known.
 */
export interface Attempt {
  id?: LoginIdentifier;
  user?: UserRecord;
  /** The caller's entry point (its `useForValidation` fields; a passkey's relying party). */
  entrypoint?: Entrypoint;
  /** The client's address, which keys the throttles ("" for internal callers). */
  clientAddress: string;
  /** The entry point's application (an upstream identity's new user registers through it). */
  clientId?: string;
  /** The caller's language (messages to a new user). */
  locale?: "en" | "es";
}

/** What a proof established. */
export interface Verified {
  user: UserRecord;
  /** The proof is a second factor (TOTP; a passkey is both): a login it starts asks for no other (no 428). */
  secondFactor: boolean;
}

/**
 * One way to prove who you are, in the manner of Kratos' strategies and
 * Logto's verifications: `verify` checks the proof behind the verifier's own
 * limits and answers whom it proves, or throws (INVALID_CREDENTIALS,
 * MFA_CODE_INVALID, RATE_LIMITED). A proof that cannot name anyone for this
 * attempt proves nobody (INVALID_CREDENTIALS). The login, the MFA step,
 * step-up and re-authentication all go through a verifier; each kind lives in
 * its folder here with its limits (and its credential's store when it has one).
 */
export interface CredentialVerifier<P extends { kind: string }> {
  readonly kind: P["kind"];
  verify(proof: P, attempt: Attempt): Promise<Verified>;
}

/** The key of an account in the throttles: the identifier typed at a login, else the known user's email, else its id. */
export function throttleAccount(attempt: Attempt): string | undefined {
  if (attempt.id) return attempt.id.value;
  const user = attempt.user;
  return user && (user.identifiers.find((i) => i.key === "email")?.value ?? `id:${user.id}`);
}
