import { randomBytes } from "node:crypto";
import type { Kv } from "@gatehouse/kv";
import type { KeyRing } from "@gatehouse/secrets";
import { CHALLENGE_TTL_SECONDS } from "./relying-party.ts";

/**
 * Challenges of the ceremonies, each taken once where every replica sees it
 * (Redis; the in-process map on the embedded default). An enrolment's is
 * kept in the kv, found by the challenge itself, which the registration
 * response carries in its clientDataJSON (the API's enrol call carries no
 * token). A sign-in's travels sealed in the token answered with its options,
 * so showing a login page stores nothing; the kv only marks it used.
 */
const enrolKey = (challenge: string) => `users:passkey:enrol:${challenge}`;
const usedKey = (challenge: string) => `users:passkey:signin-used:${challenge}`;
const BOX = "passkey-sign-in";
const AAD = "passkey sign-in challenge";

export interface SignInChallenge {
  challenge: string;
  clientId: string;
  entrypointId: string;
}

export const newChallenge = () => randomBytes(32).toString("base64url");

export async function keepEnrolmentChallenge(kv: Kv, challenge: string, userId: string): Promise<void> {
  await kv.set(enrolKey(challenge), userId, CHALLENGE_TTL_SECONDS);
}

/** The user an enrolment challenge was made for, once; null when unknown, used or expired. */
export async function takeEnrolmentChallenge(kv: Kv, challenge: string): Promise<string | null> {
  // A challenge is 43 base64url chars; anything else cannot be ours (and keeps odd keys out of the kv).
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) return null;
  return kv.take(enrolKey(challenge));
}

/** The token of a sign-in challenge: the challenge and what it is bound to, sealed, with its 5-minute end. */
export function sealSignInChallenge(keys: KeyRing, c: SignInChallenge, now = Date.now()): string {
  const body = { ...c, exp: Math.floor(now / 1000) + CHALLENGE_TTL_SECONDS };
  return keys.box(BOX).seal(JSON.stringify(body), AAD);
}

/** A sign-in challenge by its token, once; null when forged, damaged, expired or already used. */
export async function takeSignInChallenge(
  keys: KeyRing,
  kv: Kv,
  token: string,
  now = Date.now(),
): Promise<SignInChallenge | null> {
  let body: Partial<SignInChallenge> & { exp?: unknown };
  try {
    // The full 128-bit GCM tag (22 base64url chars): Node would accept a truncated one.
    if (token.length > 1000 || token.split(".")[3]?.length !== 22) return null;
    body = JSON.parse(keys.box(BOX).open(token, AAD)) as typeof body;
  } catch {
    return null;
  }
  const { challenge, clientId, entrypointId, exp } = body;
  if (typeof exp !== "number" || exp * 1000 <= now || !challenge || clientId === undefined || !entrypointId)
    return null;
  // Once: the first taker marks it, for as long as it could still be presented.
  const left = Math.max(1, exp - Math.floor(now / 1000));
  if (!(await kv.setIfAbsent(usedKey(challenge), "1", left))) return null;
  return { challenge, clientId, entrypointId };
}
