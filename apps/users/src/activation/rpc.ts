import type { ServiceImpl } from "@connectrpc/connect";
import type { UsersService } from "@gatehouse/proto";
import type { Passwords } from "../credentials/passwords.ts";
import type { UsersDeps } from "../deps.ts";
import { toUser } from "../users/model.ts";
import { activateUser, readActivation } from "./activate.ts";

/** GetActivation and ActivateUser: the hosted activation page of an assisted registration. */
export function activationRpc(
  deps: UsersDeps,
  passwords: Passwords,
): Pick<ServiceImpl<typeof UsersService>, "getActivation" | "activateUser"> {
  const activateDeps = { db: deps.db, keys: deps.keys, passwords, entrypoints: deps.entrypoints };
  return {
    async getActivation(req) {
      const a = await readActivation(activateDeps, req.activationToken);
      return {
        clientId: a.clientId,
        entrypointId: a.entrypointId,
        key: a.key,
        value: a.value,
        passwordless: a.passwordless,
      };
    },
    async activateUser(req) {
      const { user, activation } = await activateUser(activateDeps, {
        token: req.activationToken,
        password: req.password,
      });
      deps.logger.info({ userId: user.id, entrypointId: activation.entrypointId }, "account activated");
      return { user: toUser(user), clientId: activation.clientId, entrypointId: activation.entrypointId };
    },
  };
}
