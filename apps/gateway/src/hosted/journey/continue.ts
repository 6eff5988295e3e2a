import type { JsonObject } from "@bufbuild/protobuf";
import type { LoginOutcome } from "@gatehouse/proto";
import { authorizationOf, callerOf } from "./context.ts";
import type { HostedView } from "./view.ts";

/** The login continued by its flow token with what a page sent (UsersService.ContinueLogin): its next outcome. */
export async function continueFlow(
  v: HostedView,
  req: {
    flowToken: string;
    confirmationCode?: string;
    resendCode?: boolean;
    datas?: JsonObject;
    assertions?: JsonObject;
    /** The answer to the passkey offer: its RegistrationResponseJSON, or none ("Not now"). */
    passkeyOffer?: { credential?: JsonObject };
  },
): Promise<LoginOutcome> {
  const res = await v.h.deps.users.continueLogin({
    caller: callerOf(v),
    authorizationRequest: authorizationOf(v.pending),
    ...req,
  });
  return res.outcome!;
}
