import { afterAll, beforeAll } from "vitest";
import { randomBytes } from "node:crypto";
import { createClient, type Client } from "@connectrpc/connect";
import type { Db } from "@gatehouse/db";
import { errorFacts, type ErrorFacts } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";
import { createLogger } from "@gatehouse/logging";
import { AuthService, ClientAuthMethod, UserSessionsService } from "@gatehouse/proto";
import {
  authnInterceptor,
  callerInterceptors,
  inProcessTransport,
  InternalTokens,
  observeInterceptor,
  USER_SESSION_SCOPE,
} from "@gatehouse/rpc";
import { KeyRing } from "@gatehouse/secrets";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ClientCredentialsSchema } from "@gatehouse/proto";
import {
  createAuth,
  type AuthenticatedClient,
  type AuthModule,
  type AuthSettings,
  type ClientDirectory,
} from "../src/index.ts";
import { openStores, type Stores } from "./stores.ts";

// Test wiring of the auth service: real stores (PostgreSQL + Redis, PGlite +
// in-process kv), the real authn interceptor with real internal tokens, and an
// in-memory client directory (the registry is tested on its own).

export { backends, openStores, type Stores } from "./stores.ts";

export const SHOP = {
  clientId: "100000000001_shop",
  secret: "shop-secret-0123456789abcdef",
  kind: "application",
  scopes: ["users:access", "apps:read"],
} as const;
export const OTHER = {
  clientId: "100000000002",
  secret: "other-secret-0123456789abcdef",
  kind: "application",
  scopes: ["users:access"],
} as const;
export const OPERATOR = {
  clientId: "operator",
  secret: "operator-secret-0123456789abcdef",
  kind: "operator",
  scopes: ["apps:write", "apps:read", "admin"],
} as const;
/** SHOP's entry point "web": a public client (token_endpoint_auth_method none) of SHOP. */
export const SHOP_WEB = { clientId: `${SHOP.clientId}_web`, secret: "" } as const;
type TestClient = typeof SHOP | typeof OTHER | typeof OPERATOR;

/** An in-memory ClientDirectory of the three test clients and SHOP's public client. */
export function memoryDirectory(clients: readonly TestClient[] = [SHOP, OTHER, OPERATOR]): ClientDirectory {
  return {
    async authenticate(clientId, secret, alternate): Promise<AuthenticatedClient | undefined> {
      const c = clients.find((x) => x.clientId === clientId);
      if (!c || (c.secret !== secret && c.secret !== alternate)) return undefined;
      return {
        clientId: c.clientId,
        kind: c.kind,
        applicationId: c.clientId,
        allowedScopes: [...c.scopes],
        redirectUris: [],
        secretVersion: 1,
      };
    },
    async publicClient(clientId): Promise<AuthenticatedClient | undefined> {
      if (clientId !== SHOP_WEB.clientId) return undefined;
      return {
        clientId,
        kind: "public",
        applicationId: SHOP.clientId,
        allowedScopes: [],
        redirectUris: [],
        secretVersion: 0,
      };
    },
  };
}

/** A public client's credentials: its client_id alone (method none). */
export const publicCreds = (c: { clientId: string } = SHOP_WEB): MessageInitShape<typeof ClientCredentialsSchema> => ({
  method: ClientAuthMethod.NONE,
  clientId: c.clientId,
  clientSecret: "",
});

/** Credentials as the gateway forwards them. */
export function creds(
  c: { clientId: string; secret: string },
  method: ClientAuthMethod = ClientAuthMethod.CLIENT_SECRET_BASIC,
): MessageInitShape<typeof ClientCredentialsSchema> {
  return { method, clientId: c.clientId, clientSecret: c.secret };
}

export const TEST_SETTINGS: AuthSettings = {
  issuer: "http://auth.test",
  audience: "http://api.test",
  accessTokenTtlSeconds: 3600,
  signingAlg: "EdDSA",
};

export interface AuthHarness {
  mod: AuthModule;
  /** Calls as another Gatehouse service (the gateway). */
  auth: Client<typeof AuthService>;
  /** Calls without any bearer token. */
  anonymous: Client<typeof AuthService>;
  /** UserSessionsService as the users service calls it. */
  userSessions: Client<typeof UserSessionsService>;
  settings: AuthSettings;
  keyRing: KeyRing;
  close(): Promise<void>;
}

/**
 * The usual suite set-up: migrated stores and a started auth service before
 * the suite's tests, both closed after; `set` hands them to the suite.
 */
export function useAuthService(
  open: () => Promise<Stores>,
  set: (ctx: { stores: Stores; h: AuthHarness }) => void,
): void {
  let ctx: { stores: Stores; h: AuthHarness } | undefined;
  beforeAll(async () => {
    const stores = await openStores(open);
    ctx = { stores, h: await startAuth(stores) };
    set(ctx);
  });
  afterAll(async () => {
    await ctx?.h.close();
    await ctx?.stores.close();
  });
}

export async function startAuth(
  stores: { db: Db; kv: Kv },
  opts: { settings?: Partial<AuthSettings>; keyRing?: KeyRing; clients?: ClientDirectory } = {},
): Promise<AuthHarness> {
  const logger = createLogger("auth-test", "silent");
  const keyRing = opts.keyRing ?? new KeyRing(randomBytes(32));
  const settings = { ...TEST_SETTINGS, ...opts.settings };
  const mod = await createAuth({
    db: stores.db,
    kv: stores.kv,
    keys: keyRing,
    logger,
    clients: opts.clients ?? memoryDirectory(),
    settings,
  });
  const internal = new InternalTokens(keyRing);
  const server = [observeInterceptor(logger, mod.name), authnInterceptor({ policy: mod.policy, internal })];
  return {
    mod,
    auth: createClient(AuthService, inProcessTransport(mod.routes, server, callerInterceptors(internal, "gateway"))),
    anonymous: createClient(AuthService, inProcessTransport(mod.routes, server, [])),
    userSessions: createClient(
      UserSessionsService,
      inProcessTransport(mod.routes, server, callerInterceptors(internal, "users")),
    ),
    settings,
    keyRing,
    close: () => mod.close(),
  };
}

/** Issues a client_credentials token for a test client. */
export async function tokenFor(
  h: AuthHarness,
  c: { clientId: string; secret: string },
  scope?: string,
): Promise<string> {
  const res = await h.auth.issueToken({
    client: creds(c),
    grantType: "client_credentials",
    parameters: scope === undefined ? {} : { scope },
  });
  return res.accessToken;
}

export const USER_ID = "8f14e45fceea167a5a36dedd4bea2543";
export const SESSION_SCOPE = USER_SESSION_SCOPE;

/** Opens a login session as the users service does after a login. */
export function openSession(h: AuthHarness, c: { clientId: string } = SHOP, scope = SESSION_SCOPE, userId = USER_ID) {
  return h.auth.issueUserSession({ userId, clientId: c.clientId, scope });
}

/** The refresh_token grant. */
export function refresh(
  h: AuthHarness,
  refreshToken: string,
  c: { clientId: string; secret: string } = SHOP,
  scope?: string,
) {
  const parameters: Record<string, string> = { refresh_token: refreshToken };
  if (scope !== undefined) parameters.scope = scope;
  return h.auth.issueToken({ client: creds(c), grantType: "refresh_token", parameters });
}

/** Whether a token introspects active for its own client (an operator sees every client's). */
export async function isActive(h: AuthHarness, token: string): Promise<boolean> {
  return (await h.auth.introspectToken({ client: creds(OPERATOR), token })).active;
}

/** The error a rejected call ended with, as reason, code and message. */
export async function failure(call: Promise<unknown>): Promise<ErrorFacts> {
  try {
    await call;
  } catch (err) {
    return errorFacts(err);
  }
  throw new Error("expected the call to fail");
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
