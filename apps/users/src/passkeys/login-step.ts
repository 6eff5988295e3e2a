import { create, type JsonObject } from "@bufbuild/protobuf";
import { errorFacts } from "@gatehouse/errors";
import { PasskeyOfferSchema } from "@gatehouse/proto";
import { CONSOLE_CLIENT_ID } from "@gatehouse/rpc";
import type { LoginStep } from "../flow/steps.ts";
import { flowTokenOf } from "../flow/token.ts";
import { creationOptions } from "./enrolment.ts";
import type { PasskeyDeps } from "./relying-party.ts";

/**
 * The last step of a hosted login (contract section 12): when the browser
 * reported a user-verifying platform authenticator (`passkeyCapable`) and
 * the user has no passkey, the login ends in PasskeyOffer, with creation
 * options and a flow token; the page's answer (a passkey, or "Not now")
 * continues the login to its code. JSON logins, the console, a user with a
 * passkey and a flow that answered the offer go on at once.
 */
export function passkeyOfferStep(deps: PasskeyDeps): LoginStep {
  return async (ctx) => {
    if (!ctx.authorization || !ctx.caller?.passkeyCapable || ctx.passkeyOffer === "answered") return undefined;
    if (ctx.resolved.entrypoint.id === CONSOLE_CLIENT_ID) return undefined;
    const retry = ctx.passkeyOffer === "retry";
    if (!retry && (await deps.data.passkeys.count(ctx.user.id)) > 0) return undefined;
    let publicKey;
    try {
      publicKey = await creationOptions(deps, ctx.user);
    } catch (err) {
      if (errorFacts(err).reason === "PASSKEY_LIMIT") return undefined;
      throw err;
    }
    return {
      case: "passkeyOffer",
      value: create(PasskeyOfferSchema, {
        flowToken: flowTokenOf(deps.keys, ctx),
        publicKey: publicKey as unknown as JsonObject,
        retry,
      }),
    };
  };
}
