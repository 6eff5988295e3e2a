import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { CLIENT_ADDRESS_HEADER } from "@gatehouse/admin";
import type { Logger } from "@gatehouse/logging";
import { UsersAdminService, UsersService } from "@gatehouse/proto";
import {
  authnInterceptor,
  callerInterceptors,
  clientInterceptor,
  inProcessTransport,
  observeInterceptor,
  type InternalTokens,
  type Principal,
  type ServiceModule,
} from "@gatehouse/rpc";

/** The client address of the admin client's calls (x-client-address). */
export const ADMIN_ADDRESS = "198.51.100.4";

export interface AdminClients {
  users: Client<typeof UsersService>;
  admin: Client<typeof UsersAdminService>;
  reader: Client<typeof UsersAdminService>;
  internal: Client<typeof UsersAdminService>;
}

/**
 * A users module as the gateway calls it: UsersService as a service,
 * UsersAdminService as an operator client with scope admin (from
 * ADMIN_ADDRESS), as a reader (admin:read) and as a service.
 */
export function adminClientsOf(mod: ServiceModule, tokens: InternalTokens, logger: Logger): AdminClients {
  const verifyAccessToken = async (token: string): Promise<Principal | undefined> => {
    const scopes = token === "admin-token" ? ["admin"] : token === "reader-token" ? ["admin:read"] : undefined;
    return scopes && { subject: "ops", clientId: "ops", scopes: new Set(scopes), internal: false, token, claims: {} };
  };
  const server = [
    observeInterceptor(logger, mod.name),
    authnInterceptor({ policy: mod.policy, internal: tokens, verifyAccessToken }),
  ];
  const t = (callerSide: Interceptor[]) => inProcessTransport(mod.routes, server, callerSide);
  const fromAddress: Interceptor = (next) => (req) => {
    req.header.set(CLIENT_ADDRESS_HEADER, ADMIN_ADDRESS);
    return next(req);
  };
  return {
    users: createClient(UsersService, t(callerInterceptors(tokens, "test"))),
    admin: createClient(UsersAdminService, t([fromAddress, clientInterceptor(async () => "admin-token")])),
    reader: createClient(UsersAdminService, t([clientInterceptor(async () => "reader-token")])),
    internal: createClient(UsersAdminService, t(callerInterceptors(tokens, "test"))),
  };
}
