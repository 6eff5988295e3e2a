import { domainError } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";

/**
 * Failed logins (and password re-authentications) allowed per window. Three
 * counters, each cheap to keep and none usable to lock out somebody else:
 * - per account and client address: the tight limit (like Auth0's brute-force
 *   protection): it stops one address guessing one account and nobody else;
 * - per account from every address: slows a guesser with many addresses;
 *   over it, only addresses the account logged in from before go on;
 * - per address across accounts (like Auth0's suspicious-IP throttling): over
 *   it, an account that already failed from there is refused; an account
 *   without failures from there still gets its password checked, so the users
 *   behind one NAT or application backend never lock each other out.
 */
export interface LoginLimits {
  perAddressAccount: number;
  perAccount: number;
  perAddress: number;
  windowSeconds: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  perAddressAccount: 5,
  perAccount: 20,
  perAddress: 100,
  windowSeconds: 900,
};

/**
 * Which limits can refuse an attempt. A password is guarded by all three. A
 * one-time code only by the address's: its own tries (5 a code) and the
 * codes sent (5 per value and window) already bound the guesses at one
 * account, so the account limits would only hide that bound (5 wrong codes,
 * then the right one, must fail as a spent code, not as 429). Its failures
 * still count everywhere, so a password tried after them meets the limits.
 */
export type LoginGuard = "password" | "one-time-code";

/** How long a successful login makes its address known to the account (exempt from the per-account limit). */
export const KNOWN_ADDRESS_SECONDS = 30 * 86_400;

const pairKey = (account: string, address: string) => `users:login:pair:${address}|${account}`;
const accountKey = (account: string) => `users:login:acct:${account}`;
const addressKey = (address: string) => `users:login:addr:${address}`;
const knownKey = (account: string, address: string) => `users:login:known:${address}|${account}`;

// Internal callers without an address share one bucket.
const where = (address: string) => address || "unknown";

/**
 * Counts one attempt BEFORE the password is checked, so parallel guesses
 * cannot slip past a limit while their hashes run; over a limit is
 * RATE_LIMITED with `retry_after` seconds. A refused attempt checks no
 * password and is taken back from every counter: refusals never push another
 * limit (hammering one's own blocked pair cannot lock the account for others).
 */
export async function countLoginAttempt(
  kv: Kv,
  limits: LoginLimits,
  account: string,
  address: string,
  guard: LoginGuard = "password",
): Promise<void> {
  const keys = [pairKey(account, where(address)), accountKey(account), addressKey(where(address))];
  // One round trip for the three counters; the known-address mark is read only when the account limit asks for it.
  const [pair, acct, addr] = await kv.incrMany(keys, limits.windowSeconds);
  const accountLimits = guard === "password";
  let retryAfter = 0;
  if (accountLimits && pair!.count > limits.perAddressAccount) retryAfter = pair!.ttlSeconds;
  // Over the address limit, only an account with failures (or attempts in flight) from this address waits.
  else if (addr!.count > limits.perAddress && pair!.count > 1)
    retryAfter = Math.min(pair!.ttlSeconds, addr!.ttlSeconds);
  else if (
    accountLimits &&
    acct!.count > limits.perAccount &&
    (await kv.get(knownKey(account, where(address)))) === null
  )
    retryAfter = acct!.ttlSeconds;
  if (retryAfter === 0) return;
  await kv.batch(keys.map((key) => ({ op: "decr", key })));
  throw domainError("RATE_LIMITED", undefined, { metadata: { retry_after: String(retryAfter) } });
}

/**
 * A right password: this address's failures for the account are forgiven,
 * the attempt is taken back from the account and address counts (only
 * failures count there), and the address becomes known to the account.
 */
export async function clearAccountAttempts(kv: Kv, account: string, address: string): Promise<void> {
  // One step and one round trip.
  await kv.batch([
    { op: "del", key: pairKey(account, where(address)) },
    { op: "decr", key: accountKey(account) },
    { op: "decr", key: addressKey(where(address)) },
    { op: "set", key: knownKey(account, where(address)), value: "1", ttlSeconds: KNOWN_ADDRESS_SECONDS },
  ]);
}
