import type { Kv } from "@gatehouse/kv";
import { callingCode } from "./calling-code.ts";

/** The hour's budgets of text messages: in total and per destination calling code (SMS_LIMIT_PER_HOUR, …). */
export interface SmsLimits {
  perHour: number;
  perPrefixPerHour: number;
}

export const DEFAULT_SMS_LIMITS: SmsLimits = { perHour: 1000, perPrefixPerHour: 300 };

/** One message to send: its number, and the application's own budget when it has one. */
export interface SmsScope {
  to: string;
  clientId?: string;
  appPerHour?: number;
}

/** Which budget a refused message would have gone over. */
export type SmsLimit = "global" | "prefix" | "application";

export interface SmsBudget {
  /** Spends one message of every budget that applies, or of none: the limit that refused it, or undefined (sent). */
  take(scope: SmsScope): Promise<SmsLimit | undefined>;
  /** The limit already spent for this message, spending nothing (a request answered before its code is made). */
  spent(scope: SmsScope): Promise<SmsLimit | undefined>;
}

const HOUR_MS = 3_600_000;

/**
 * Budgets per clock hour, counted in the kv: Redis for every replica at once
 * (one script increments every counter of a message atomically), in-process
 * on the embedded default. A message over any budget takes its counts back,
 * so refusals spend nothing. A limit of 0 sends nothing.
 */
export function smsBudget(kv: Kv, limits: SmsLimits, now: () => number = Date.now): SmsBudget {
  function counters(scope: SmsScope): { key: string; limit: number; name: SmsLimit }[] {
    const hour = Math.floor(now() / HOUR_MS);
    const prefix = callingCode(scope.to) ?? "none";
    const out: { key: string; limit: number; name: SmsLimit }[] = [
      { key: `sms:hour:${hour}`, limit: limits.perHour, name: "global" },
      { key: `sms:prefix:${prefix}:${hour}`, limit: limits.perPrefixPerHour, name: "prefix" },
    ];
    if (scope.clientId && scope.appPerHour !== undefined)
      out.push({ key: `sms:app:${scope.clientId}:${hour}`, limit: scope.appPerHour, name: "application" });
    return out;
  }
  // The window outlives its hour a little, so a late take never starts a fresh count for a past hour.
  const ttlSeconds = HOUR_MS / 1000 + 60;

  return {
    async take(scope) {
      const list = counters(scope);
      const counts = await kv.incrMany(
        list.map((c) => c.key),
        ttlSeconds,
      );
      const over = list.find((c, i) => counts[i]!.count > c.limit);
      if (!over) return undefined;
      await kv.batch(list.map((c) => ({ op: "decr" as const, key: c.key })));
      return over.name;
    },
    async spent(scope) {
      const list = counters(scope);
      const values = await kv.getMany(list.map((c) => c.key));
      return list.find((c, i) => Number(values[i] ?? 0) >= c.limit)?.name;
    },
  };
}
