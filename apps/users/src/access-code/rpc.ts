import type { ServiceImpl } from "@connectrpc/connect";
import type { UsersService } from "@gatehouse/proto";
import type { BackgroundTasks } from "../background.ts";
import { localeOf } from "../caller.ts";
import type { UsersDeps } from "../deps.ts";
import { entrypointOf } from "../entrypoint.ts";
import { refuseConsoleCode } from "../operators/console-access.ts";
import { DEFAULT_ACCESS_CODE_OPTIONS } from "./options.ts";
import { requestAccessCode } from "./request.ts";

/** RequestAccessCode: code sign-in's first half (the login with the code is LoginUser). */
export function accessCodeRpc(
  deps: UsersDeps,
  background: BackgroundTasks,
): Pick<ServiceImpl<typeof UsersService>, "requestAccessCode"> {
  const accessCodes = deps.accessCodes ?? DEFAULT_ACCESS_CODE_OPTIONS;
  return {
    async requestAccessCode(req) {
      const { entrypoint, clientId } = await entrypointOf(deps.entrypoints, req.caller);
      refuseConsoleCode(entrypoint.id, `ids.${req.key}`);
      await requestAccessCode(
        { db: deps.db, kv: deps.kv, keys: deps.keys, enqueue: deps.enqueue, accessCodes, background },
        { entrypoint, clientId, key: req.key, value: req.value, locale: localeOf(req.caller) },
      );
      return { expiresIn: BigInt(accessCodes.ttlSeconds) };
    },
  };
}
