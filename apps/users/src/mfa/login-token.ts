import { domainError } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";
import { randomSecret, sha256Base64url } from "@gatehouse/secrets";

/** What an MFA token is bound to: the login attempt that answered 428. */
export interface MfaBinding {
  userId: string;
  clientId: string;
  entrypointId: string;
  sourceId: string;
  fca: boolean;
  /** The user had no factor (policy `required`): the token may enrol one. */
  enroll: boolean;
  /** ConfirmTotp with this token proved a code: finishing needs none. */
  proven?: boolean;
}

export const MFA_TOKEN_TTL_SECONDS = 300;

const tokenKey = (token: string) => `users:mfa:token:${sha256Base64url(token)}`;
const triesKey = (token: string) => `users:mfa:tries:${sha256Base64url(token)}`;

export const mfaTokenInvalid = () => domainError("MFA_TOKEN_INVALID");

/** A 256-bit token from the CSPRNG; only its hash is stored, for 5 minutes. */
export async function issueMfaToken(kv: Kv, binding: MfaBinding): Promise<string> {
  const token = randomSecret(32);
  await kv.set(tokenKey(token), JSON.stringify(binding), MFA_TOKEN_TTL_SECONDS);
  return token;
}

/** The live binding of a token presented by `clientId` (and its entry point, when given). */
export async function readMfaToken(
  kv: Kv,
  token: string,
  caller: { clientId: string; entrypointId?: string },
): Promise<{ binding: MfaBinding; raw: string }> {
  const raw = token && token.length <= 100 ? await kv.get(tokenKey(token)) : null;
  if (!raw) throw mfaTokenInvalid();
  const binding = JSON.parse(raw) as MfaBinding;
  if (binding.clientId !== caller.clientId) throw mfaTokenInvalid();
  if (caller.entrypointId !== undefined && binding.entrypointId !== caller.entrypointId) throw mfaTokenInvalid();
  return { binding, raw };
}

/**
 * Counts one code guess on the token BEFORE it is checked; past the limit
 * the token dies (the login must start again).
 */
export async function countTokenGuess(kv: Kv, token: string, perToken: number): Promise<number> {
  const n = await kv.incr(triesKey(token), MFA_TOKEN_TTL_SECONDS);
  if (n.count > perToken) {
    await kv.del(tokenKey(token));
    throw mfaTokenInvalid();
  }
  return perToken - n.count;
}

/** Spends the token: exactly one caller gets its binding. */
export async function spendMfaToken(kv: Kv, token: string): Promise<MfaBinding> {
  const raw = await kv.take(tokenKey(token));
  if (!raw) throw mfaTokenInvalid();
  return JSON.parse(raw) as MfaBinding;
}

/** A token that enrols a factor lives this long from the enrolment on: scanning, a first code, saving the recovery codes. */
export const ENROLMENT_TOKEN_TTL_SECONDS = 900;

/** Gives an enrolling token its longer lifetime (only the same binding: a spent or changed token stays as it is). */
export async function extendForEnrolment(kv: Kv, token: string, current: { raw: string }): Promise<void> {
  await kv.compareAndSet(tokenKey(token), current.raw, current.raw, ENROLMENT_TOKEN_TTL_SECONDS);
}

/** Marks the token proven by an enrolment code; keeps its lifetime. */
export async function markMfaTokenProven(
  kv: Kv,
  token: string,
  current: { binding: MfaBinding; raw: string },
): Promise<void> {
  await kv.compareAndSet(tokenKey(token), current.raw, JSON.stringify({ ...current.binding, proven: true }));
}
