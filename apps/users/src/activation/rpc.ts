import type { ServiceImpl } from "@connectrpc/connect";
import type { Logger } from "@gatehouse/logging";
import type { UsersService } from "@gatehouse/proto";
import { toUser } from "../users/model.ts";
import { activateUser, readActivation, type ActivateDeps } from "./activate.ts";

/** GetActivation and ActivateUser: the hosted activation page of an assisted registration. */
export function activationRpc(
  deps: ActivateDeps & { logger: Logger },
): Pick<ServiceImpl<typeof UsersService>, "getActivation" | "activateUser"> {
  return {
    async getActivation(req) {
      const a = await readActivation(deps, req.activationToken);
      return {
        clientId: a.clientId,
        entrypointId: a.entrypointId,
        key: a.key,
        value: a.value,
        passwordless: a.passwordless,
      };
    },
    async activateUser(req) {
      const { user, activation } = await activateUser(deps, {
        token: req.activationToken,
        password: req.password,
      });
      deps.logger.info({ userId: user.id, entrypointId: activation.entrypointId }, "account activated");
      return { user: toUser(user), clientId: activation.clientId, entrypointId: activation.entrypointId };
    },
  };
}
