import { domainError } from "@gatehouse/errors";
import type { ClientCredentials } from "@gatehouse/proto";
import { CONSOLE_APPLICATION_ID, CONSOLE_CLIENT_ID, USER_SCOPES } from "@gatehouse/rpc";
import { randomSecret } from "@gatehouse/secrets";
import { authenticateClient } from "../clients/authenticate-client.ts";
import type { ClientDirectory } from "../clients/client-directory.ts";
import { parseScope } from "../scopes/scope.ts";
import { DEVICE_POLL_INTERVAL_SECONDS, EXPIRED_MEMORY_MS, type DeviceAuthorizations } from "./devices.ts";
import { formatUserCode, newUserCode } from "./user-code.ts";

/** The scope granted when the request names none (as at /authorize). */
export const DEFAULT_DEVICE_SCOPE = "profile";
// A device kind as the API's source.id spells them ("itv", "game_console", "pc").
const SOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const ENTRYPOINT_ID = /^[A-Za-z0-9_-]{1,128}$/;
const USER_CODE_DRAWS = 5;

export interface AuthorizeDeviceRequest {
  client: ClientCredentials | undefined;
  scope: string;
  entrypointId: string;
  sourceId: string;
}

/**
 * RFC 8628 section 3.1-3.2: a device's client asks for a device code and a
 * user code. Entry points (public clients) and applications may; operator
 * clients and the console cannot (nobody signs in for them on a TV).
 */
export async function authorizeDevice(
  deps: { clients: ClientDirectory; devices: DeviceAuthorizations },
  req: AuthorizeDeviceRequest,
) {
  const client = await authenticateClient(deps.clients, req.client, { allowPublic: true });
  const console = client.clientId === CONSOLE_CLIENT_ID || client.applicationId === CONSOLE_APPLICATION_ID;
  if (client.kind === "operator" || console)
    throw domainError("UNAUTHORIZED_CLIENT", "this client cannot use the device authorization grant");
  const scopes = req.scope === "" ? [DEFAULT_DEVICE_SCOPE] : parseScope(req.scope);
  if (!scopes) throw domainError("INVALID_SCOPE", "scope must be space-separated scope tokens (RFC 6749 section 3.3)");
  const unknown = scopes.filter((s) => !USER_SCOPES.includes(s));
  if (unknown.length) throw domainError("INVALID_SCOPE", `scope not available to devices: ${unknown.join(" ")}`);
  if (req.sourceId && !SOURCE_ID.test(req.sourceId))
    throw domainError("INVALID_REQUEST", "source_id must be 1-64 letters, digits, '.', '_' or '-'");
  if (req.entrypointId && !ENTRYPOINT_ID.test(req.entrypointId))
    throw domainError("INVALID_REQUEST", "entrypoint is not an entry point of this application");

  const { devices } = deps;
  const now = devices.now();
  // Expired rows past their memory go now and then, with the requests that add new ones.
  await devices.store.purge(now, EXPIRED_MEMORY_MS);
  const deviceCode = randomSecret(32);
  const ttl = devices.settings.ttlSeconds;
  for (let i = 0; i < USER_CODE_DRAWS; i++) {
    const userCode = newUserCode();
    const stored = await devices.store.insert(
      {
        deviceHash: devices.hashDeviceCode(deviceCode),
        userCodeHash: devices.hashUserCode(userCode),
        clientId: client.clientId,
        applicationId: client.applicationId,
        // A public client is its entry point; an application chooses one (or gets its first).
        entrypointId: client.kind === "public" ? client.clientId : req.entrypointId,
        sourceId: req.sourceId,
        scope: [...new Set(scopes)].join(" "),
        intervalSeconds: DEVICE_POLL_INTERVAL_SECONDS,
        expiresAt: now + ttl * 1000,
      },
      now,
    );
    if (stored)
      return { deviceCode, userCode: formatUserCode(userCode), expiresIn: ttl, interval: DEVICE_POLL_INTERVAL_SECONDS };
  }
  throw domainError("SERVICE_UNAVAILABLE", "no free user code; try again");
}
