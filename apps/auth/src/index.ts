import { fileURLToPath } from "node:url";
import type { JSONWebKeySet } from "jose";
import type { Db, Migrations } from "@gatehouse/db";
import type { Kv } from "@gatehouse/kv";
import type { Logger } from "@gatehouse/logging";
import { AuthService } from "@gatehouse/proto";
import { INTERNAL_SCOPE, type ServiceModule } from "@gatehouse/rpc";
import type { KeyRing } from "@gatehouse/secrets";
import { createAuthService } from "./auth-service.ts";
import type { ClientDirectory } from "./clients/directory.ts";
import { createKeyManager, type SigningAlg } from "./keys/manager.ts";
import { revocationList } from "./tokens/revocation.ts";

/** The auth service's tables live in the `auth` schema. */
export const authMigrations: Migrations = { schema: "auth", dir: fileURLToPath(new URL("../migrations", import.meta.url)) };

export interface AuthDeps {
  db: Db;
  kv: Kv;
  keys: KeyRing;
  logger: Logger;
  clients: ClientDirectory;
  settings: { issuer: string; audience: string; accessTokenTtlSeconds: number; signingAlg: SigningAlg };
}

export interface AuthModule extends ServiceModule {
  isRevoked(jti: string): Promise<boolean>;
  jwks(): Promise<JSONWebKeySet>;
}

const internalOnly = [INTERNAL_SCOPE];

/** The auth service module: grants, signing keys, introspection, revocation. */
export async function createAuth(deps: AuthDeps): Promise<AuthModule> {
  const keys = await createKeyManager({ db: deps.db, keys: deps.keys, alg: deps.settings.signingAlg });
  const revocations = revocationList(deps.kv);
  const service = createAuthService({ clients: deps.clients, keys, revocations, settings: deps.settings });
  return {
    name: "auth",
    routes: (router) => router.service(AuthService, service),
    policy: {
      issueToken: internalOnly,
      introspectToken: internalOnly,
      revokeToken: internalOnly,
      getJwks: internalOnly,
      getServerMetadata: internalOnly,
    },
    ready: async () => (await deps.db.ping()) && (await deps.kv.ping()),
    close: async () => keys.close(),
    isRevoked: (jti) => revocations.isRevoked(jti),
    jwks: async () => keys.jwks(),
  };
}

export { registryClientDirectory, type AuthenticatedClient, type ClientDirectory } from "./clients/directory.ts";
export { grants } from "./grants/index.ts";
