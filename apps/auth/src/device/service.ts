import type { ServiceImpl } from "@connectrpc/connect";
import type { DeviceAuthorizationService } from "@gatehouse/proto";
import type { ClientDirectory } from "../clients/client-directory.ts";
import type { AuthorizationCodes } from "../codes/authorization-codes.ts";
import { authorizeDevice } from "./authorize.ts";
import type { DeviceAuthorizations } from "./devices.ts";
import { decideDevice, lookUpUserCode, signInDevice } from "./person.ts";

/** DeviceAuthorizationService over Connect: the gateway speaks the endpoint's form and the /device page. */
export function createDeviceAuthorizationService(deps: {
  clients: ClientDirectory;
  devices: DeviceAuthorizations;
  codes: AuthorizationCodes;
}): ServiceImpl<typeof DeviceAuthorizationService> {
  return {
    async authorizeDevice(req) {
      const d = await authorizeDevice(deps, {
        client: req.client,
        scope: req.scope,
        entrypointId: req.entrypointId,
        sourceId: req.sourceId,
      });
      return { ...d, expiresIn: BigInt(d.expiresIn), interval: BigInt(d.interval) };
    },
    async lookUpUserCode(req) {
      return lookUpUserCode(deps.devices, req.userCode, req.clientAddress);
    },
    async signInDevice(req) {
      return signInDevice(deps, req);
    },
    async decideDevice(req) {
      await decideDevice(deps.devices, req);
      return {};
    },
  };
}
