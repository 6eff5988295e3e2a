import { domainError } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";

/** Login attempts allowed per window, per account and per client address. */
export interface LoginLimits {
  perAccount: number;
  perAddress: number;
  windowSeconds: number;
}

// Per address: an application's backend calls /user/access for all of its
// users from one address, and attempts count while in flight, so the address
// limit is wide; the account limit is the tight one.
export const DEFAULT_LOGIN_LIMITS: LoginLimits = { perAccount: 5, perAddress: 100, windowSeconds: 900 };

const accountKey = (email: string) => `users:login:acct:${email}`;
const addressKey = (address: string) => `users:login:addr:${address}`;

/**
 * Counts one attempt BEFORE the password is checked, so parallel guesses
 * cannot slip past the limit while their hashes run; over the limit is
 * RATE_LIMITED with `retry_after` seconds.
 */
export async function countLoginAttempt(kv: Kv, limits: LoginLimits, email: string, address: string): Promise<void> {
  const [account, client] = await Promise.all([
    kv.incr(accountKey(email), limits.windowSeconds),
    address ? kv.incr(addressKey(address), limits.windowSeconds) : Promise.resolve(undefined),
  ]);
  const over = [
    account.count > limits.perAccount ? account.ttlSeconds : 0,
    client && client.count > limits.perAddress ? client.ttlSeconds : 0,
  ];
  const retryAfter = Math.max(...over);
  if (retryAfter > 0) throw domainError("RATE_LIMITED", undefined, { metadata: { retry_after: String(retryAfter) } });
}

/**
 * A successful login clears the account's failures and takes its own count
 * back from the address window, so that only failures count there: many
 * users behind one NAT must not lock each other out.
 */
export async function clearAccountAttempts(kv: Kv, email: string, address: string): Promise<void> {
  await Promise.all([kv.del(accountKey(email)), address ? kv.decr(addressKey(address)) : undefined]);
}
