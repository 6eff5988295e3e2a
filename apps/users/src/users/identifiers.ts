import { randomBytes } from "node:crypto";

/** Identifier keys of the contract; each value belongs to at most one user. */
export const ID_KEYS = ["email", "phone_number", "national_id", "screen_name"] as const;
export type IdKey = (typeof ID_KEYS)[number];

/** Keys that can carry a confirmation code (email and SMS). */
export const CONFIRMABLE_KEYS: readonly IdKey[] = ["email", "phone_number"];

export const isIdKey = (k: string): k is IdKey => (ID_KEYS as readonly string[]).includes(k);

const EMAIL =
  /^[^\s@"(),:;<>[\\\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
export const E164 = /^\+[1-9]\d{6,14}$/;

export function canonicalEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

export function isEmail(canonical: string): boolean {
  return canonical.length <= 254 && EMAIL.test(canonical);
}

/** E.164 from what people type: spaces, dots, dashes and parentheses are dropped. */
export function canonicalPhone(raw: string): string {
  return raw.trim().replace(/[\s.()-]/g, "");
}

/** Canonical form of an identifier value: what the unique constraint compares. */
export function canonicalId(key: IdKey, raw: string): string {
  if (key === "email") return canonicalEmail(raw);
  if (key === "phone_number") return canonicalPhone(raw);
  return raw.trim();
}

/**
 * object_id: a 16-digit number from the CSPRNG (about 53 bits), because the
 * spec types `login_status.uid` as a long equal to `content.user.id`; it stays
 * within JSON's safe integers. A collision fails on the primary key.
 */
export function newUserId(): string {
  for (;;) {
    const n = Number(randomBytes(8).readBigUInt64BE() >> 11n); // 53 random bits
    if (n >= 1e15) return String(n); // 16 digits, like every other id
  }
}

/** pulse_id: a second opaque id, 32 hex chars, unrelated to the object_id. */
export const newPulseId = (): string => randomBytes(16).toString("hex");
