import { create } from "@bufbuild/protobuf";
import type { ConnectError } from "@connectrpc/connect";
import type { Logger } from "@gatehouse/logging";
import { ConfirmationRequiredSchema, type Entrypoint } from "@gatehouse/proto";
import { localeOf } from "../caller.ts";
import type { LoginStep } from "../login/steps.ts";
import { isIdKey, type IdKey } from "../users/identifiers.ts";
import { resendAtLogin, type ResendDeps } from "./resend.ts";

/** Identifier keys that must be confirmed to log in through this entry point: the main id and the email. */
function keysToBeConfirmed(ep: Entrypoint): IdKey[] {
  const ids = ep.fields.filter((f) => f.type === "id");
  const main = ids.find((f) => f.main) ?? (ids.length === 1 ? ids[0] : undefined);
  return ids
    .filter((f) => f.requiresConfirmation && (f === main || f.key === "email"))
    .map((f) => f.key)
    .filter(isIdKey);
}

/**
 * The confirmation step (contract section 5: the first after the
 * credentials): an unconfirmed main identifier (or email) ends the login in
 * ConfirmationRequired (412). A new code is sent on the way, within the
 * resend limit; the outcome carries the resend link's token.
 */
export function confirmationStep(deps: ResendDeps & { logger: Logger }): LoginStep {
  return async (ctx) => {
    const unconfirmed = keysToBeConfirmed(ctx.resolved.entrypoint).filter((key) => !ctx.user.identifiers.find((i) => i.key === key)?.confirmed);
    if (!unconfirmed.length) return undefined;
    const resent = await resendAtLogin(deps, { userId: ctx.user.id, unconfirmed, locale: localeOf(ctx.caller) });
    if (resent.notQueued) deps.logger.error({ err: (resent.notQueued as ConnectError).cause, userId: ctx.user.id }, "confirmation resend not queued");
    return {
      case: "confirmationRequired",
      value: create(ConfirmationRequiredSchema, {
        keys: unconfirmed,
        key: resent.key,
        resendToken: resent.resendToken,
        resendLimited: resent.limitedForSeconds !== undefined,
        retryAfterSeconds: BigInt(resent.limitedForSeconds ?? 0),
      }),
    };
  };
}
