import { callingCode, smsBudget, type SmsLimit, type SmsLimits, type SmsScope } from "@gatehouse/abuse";
import type { AuditLog } from "@gatehouse/admin";
import { domainError } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";
import type { Logger } from "@gatehouse/logging";
import { smsRefused } from "@gatehouse/rpc";
import type { EntrypointDirectory } from "../ports.ts";

/** The SMS limits of contract section 17 in front of every text message. */
export interface SmsGate {
  /** Spends the message from every budget, or throws SMS_LIMIT (429): nothing is sent. */
  take(to: string, entrypointId: string | undefined): Promise<void>;
  /** Throws SMS_LIMIT when a budget is already spent, spending nothing (a code request answered before its code). */
  check(to: string, entrypointId: string | undefined): Promise<void>;
}

export interface SmsGateDeps {
  kv: Kv;
  limits: SmsLimits;
  /** The entry point's application: its own budget (smsPerHour). */
  entrypoints: EntrypointDirectory;
  /** The audit log over the pool: a refusal is recorded though its transaction rolls back. */
  audit: AuditLog;
  logger: Logger;
}

export const SMS_REFUSED_ACTION = "sms.refused";

export function smsGate(deps: SmsGateDeps): SmsGate {
  const budget = smsBudget(deps.kv, deps.limits);
  async function scopeOf(to: string, entrypointId: string | undefined): Promise<SmsScope> {
    const ep = entrypointId ? await deps.entrypoints(entrypointId) : undefined;
    return { to, clientId: ep?.clientId, appPerHour: ep?.smsPerHour };
  }
  // Counted in /metrics and audited (the calling code, never the number), then refused.
  function refuse(limit: SmsLimit, scope: SmsScope): never {
    smsRefused.inc({ limit });
    const prefix = callingCode(scope.to) ?? "";
    deps.logger.warn({ limit, prefix, clientId: scope.clientId }, "text message refused by the SMS limits");
    // Not awaited: the refusal is thrown inside the change's transaction, and the embedded database runs
    // one transaction at a time; the entry is written once that transaction has rolled back.
    void deps.audit
      .record({
        actor: scope.clientId ? `client:${scope.clientId}` : "service:users",
        action: SMS_REFUSED_ACTION,
        target: scope.clientId ?? "",
        details: { limit, prefix },
      })
      .catch((err: unknown) => deps.logger.error({ err }, "audit of a refused text message failed"));
    // The budgets are per clock hour: the next one starts in this many seconds (Retry-After).
    const retryAfter = String(3600 - (Math.floor(Date.now() / 1000) % 3600));
    throw domainError("SMS_LIMIT", `the ${limit} SMS limit for this hour is reached`, {
      metadata: { limit, retry_after: retryAfter },
    });
  }
  return {
    async take(to, entrypointId) {
      const scope = await scopeOf(to, entrypointId);
      const over = await budget.take(scope);
      if (over) refuse(over, scope);
    },
    async check(to, entrypointId) {
      const scope = await scopeOf(to, entrypointId);
      const over = await budget.spent(scope);
      if (over) refuse(over, scope);
    },
  };
}
