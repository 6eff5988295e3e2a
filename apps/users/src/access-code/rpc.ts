import type { ServiceImpl } from "@connectrpc/connect";
import type { UsersService } from "@gatehouse/proto";
import { localeOf } from "../caller.ts";
import { entrypointOf } from "../entrypoint.ts";
import { refuseConsoleCode } from "../operators/console-access.ts";
import type { EntrypointDirectory } from "../ports.ts";
import { requestAccessCode, type RequestAccessCodeDeps } from "./request.ts";

/** RequestAccessCode: code sign-in's first half (the login with the code is LoginUser). */
export function accessCodeRpc(
  deps: RequestAccessCodeDeps & { entrypoints: EntrypointDirectory },
): Pick<ServiceImpl<typeof UsersService>, "requestAccessCode"> {
  return {
    async requestAccessCode(req) {
      const { entrypoint, clientId, phonePrefixes } = await entrypointOf(deps.entrypoints, req.caller);
      refuseConsoleCode(entrypoint.id, `ids.${req.key}`);
      await requestAccessCode(deps, {
        entrypoint,
        clientId,
        key: req.key,
        value: req.value,
        locale: localeOf(req.caller),
        phonePrefixes,
      });
      return { expiresIn: BigInt(deps.accessCodes.ttlSeconds) };
    },
  };
}
