import { create } from "@bufbuild/protobuf";
import type { ConnectError } from "@connectrpc/connect";
import type { Logger } from "@gatehouse/logging";
import { ConfirmationRequiredSchema, type Entrypoint } from "@gatehouse/proto";
import { localeOf } from "../caller.ts";
import { flowTokenOf } from "../flow/token.ts";
import type { LoginContext, LoginStep } from "../flow/steps.ts";
import { isIdKey, type IdKey } from "../users/identifiers.ts";
import { resendAtLogin, type ResendDeps } from "./resend.ts";

/** Identifier keys that must be confirmed to log in through this entry point: the main id and the email. */
export function keysToBeConfirmed(ep: Entrypoint): IdKey[] {
  const ids = ep.fields.filter((f) => f.type === "id");
  const main = ids.find((f) => f.main) ?? (ids.length === 1 ? ids[0] : undefined);
  return ids
    .filter((f) => f.requiresConfirmation && (f === main || f.key === "email"))
    .map((f) => f.key)
    .filter(isIdKey);
}

/** The identifiers that block this login: those to be confirmed and not confirmed, or, awaiting activation, the activation's. */
async function blocking(deps: ResendDeps, ctx: LoginContext): Promise<IdKey[]> {
  if (ctx.user.awaitingActivation) return [(await deps.data.activations.latest(ctx.user.id))?.key ?? "email"];
  return keysToBeConfirmed(ctx.resolved.entrypoint).filter(
    (key) => !ctx.user.identifiers.find((i) => i.key === key)?.confirmed,
  );
}

/**
 * The confirmation step (contract section 5: the first after the
 * credentials): an unconfirmed main identifier (or email) ends the login in
 * ConfirmationRequired (412), and so does an account registered through an
 * assisted entry point until it is activated (contract section 8). A new
 * code (or activation link) is sent on the way, within the resend limit,
 * unless this hosted flow has just sent one; the outcome carries the resend
 * link's token and, in a hosted flow, the token that continues it with the code.
 */
export function confirmationStep(deps: ResendDeps & { logger: Logger }): LoginStep {
  return async (ctx) => {
    const unconfirmed = await blocking(deps, ctx);
    if (!unconfirmed.length) return undefined;
    const activation = ctx.user.awaitingActivation;
    const skip = ctx.resend === "skip";
    const resent = await resendAtLogin(deps, {
      userId: ctx.user.id,
      unconfirmed,
      locale: localeOf(ctx.caller),
      skip,
      entrypointId: ctx.resolved.entrypoint.id,
    });
    if (resent.notQueued)
      deps.logger.error(
        { err: (resent.notQueued as ConnectError).cause, userId: ctx.user.id },
        "confirmation resend not queued",
      );
    const codeSent = skip || (resent.limitedForSeconds === undefined && !resent.notQueued);
    return {
      case: "confirmationRequired",
      value: create(ConfirmationRequiredSchema, {
        keys: unconfirmed,
        key: resent.key,
        resendToken: resent.resendToken,
        resendLimited: resent.limitedForSeconds !== undefined,
        retryAfterSeconds: BigInt(resent.limitedForSeconds ?? 0),
        activationRequired: activation,
        // An account awaiting activation continues through its link, not through a code on the page.
        flowToken: activation ? "" : flowTokenOf(deps.keys, ctx, { codeSent }),
      }),
    };
  };
}
