import { randomBytes } from "node:crypto";
import type { Kv } from "@gatehouse/kv";
import { CHALLENGE_TTL_SECONDS } from "./relying-party.ts";

/**
 * Challenges of the ceremonies, in the kv so that every replica sees them
 * (Redis; the in-process map on the embedded default), each taken once.
 * An enrolment's is found by the challenge itself, which the registration
 * response carries in its clientDataJSON (the API's enrol call carries no
 * token); a sign-in's by the token answered with its options.
 */
const enrolKey = (challenge: string) => `users:passkey:enrol:${challenge}`;
const signInKey = (token: string) => `users:passkey:signin:${token}`;

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

export async function keepSignInChallenge(kv: Kv, c: SignInChallenge): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await kv.set(signInKey(token), JSON.stringify(c), CHALLENGE_TTL_SECONDS);
  return token;
}

/** A sign-in challenge by its token, once; null when unknown, used or expired. */
export async function takeSignInChallenge(kv: Kv, token: string): Promise<SignInChallenge | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const raw = await kv.take(signInKey(token));
  return raw === null ? null : (JSON.parse(raw) as SignInChallenge);
}
