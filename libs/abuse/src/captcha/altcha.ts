import { createHash } from "node:crypto";
import type { Kv } from "@gatehouse/kv";
import type { Challenge, Solution } from "altcha-lib";

/** How a submitted solution was judged. */
export type AltchaVerdict = "ok" | "missing" | "invalid" | "replayed";

export interface AltchaOptions {
  /** HMAC secrets (derived from SECRET_KEY): the challenge's signature and its derived key's. */
  secret: string;
  keySecret: string;
  /** Where used solutions are kept until their challenge expires: Redis, shared by every replica. */
  kv: Kv;
  /** A challenge's lifetime: 10 minutes to fill in a form. */
  ttlSeconds?: number;
  /** The search's size: the secret counter is drawn from this range (SHA-256, a fraction of a second in a browser). */
  counter?: [number, number];
}

export interface Altcha {
  /** A new signed challenge, for the widget (its `challenge` attribute, JSON). */
  challenge(): Promise<Challenge>;
  /** Judges the widget's payload (base64 JSON of challenge and solution): right, unexpired and never used before. */
  verify(payload: string | undefined): Promise<AltchaVerdict>;
}

const DEFAULT_COUNTER: [number, number] = [5_000, 50_000];

// altcha-lib loads with the first captcha an application asks for, not in every gateway at start.
let lib: Promise<[typeof import("altcha-lib"), typeof import("altcha-lib/algorithms/sha")]> | undefined;
const altchaLib = () => (lib ??= Promise.all([import("altcha-lib"), import("altcha-lib/algorithms/sha")]));

function parse(payload: string): { challenge: Challenge; solution: Solution } | undefined {
  try {
    const p = JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as Record<string, unknown>;
    // Only self-hosted (client) solutions: a server-signature payload has no place here.
    if (!p || typeof p !== "object" || !p.challenge || !p.solution || "verificationData" in p) return undefined;
    return p as unknown as { challenge: Challenge; solution: Solution };
  } catch {
    return undefined;
  }
}

/**
 * Self-hosted ALTCHA proof of work (altcha-lib, v2 challenges): the server
 * draws a secret counter, signs the challenge and the key it derives, and the
 * browser finds the counter by a SHA-256 search. A solution counts once: its
 * challenge's nonce is marked used in the kv (set-if-absent, so of two
 * replicas given the same solution one accepts it) until the challenge
 * expires, after which the signature check refuses it anyway.
 */
export function altcha(options: AltchaOptions): Altcha {
  const ttlSeconds = options.ttlSeconds ?? 600;
  const [low, high] = options.counter ?? DEFAULT_COUNTER;
  const secrets = { hmacSignatureSecret: options.secret, hmacKeySignatureSecret: options.keySecret };
  return {
    async challenge() {
      const [{ createChallenge, randomInt }, { deriveKey }] = await altchaLib();
      return createChallenge({
        algorithm: "SHA-256",
        cost: 1,
        counter: randomInt(low, high),
        deriveKey,
        expiresAt: new Date(Date.now() + ttlSeconds * 1000),
        ...secrets,
      });
    },
    async verify(payload) {
      if (!payload) return "missing";
      const parsed = parse(payload);
      if (!parsed) return "invalid";
      const [{ verifySolution }, { deriveKey }] = await altchaLib();
      const result = await verifySolution({ ...parsed, deriveKey, ...secrets }).catch(() => undefined);
      if (!result?.verified) return "invalid";
      const used = createHash("sha256").update(String(parsed.challenge.parameters.nonce)).digest("hex");
      return (await options.kv.setIfAbsent(`altcha:used:${used}`, "1", ttlSeconds)) ? "ok" : "replayed";
    },
  };
}
