import { fileURLToPath } from "node:url";
import type { Migrations } from "@gatehouse/db";

/** The auth schema and its migrations (signing keys). */
export const authMigrations: Migrations = {
  schema: "auth",
  dir: fileURLToPath(new URL("../migrations", import.meta.url)),
};

export { createAuth, type AuthDeps, type AuthModule } from "./create-auth.ts";
export type { AuthSettings } from "./settings.ts";
export type { SigningAlg } from "./keys/key-material.ts";
export { generateSigningKey, useTestSigningKeys, type GeneratedKey } from "./keys/key-material.ts";
export type { AuthenticatedClient, ClientDirectory } from "./clients/client-directory.ts";
export { registryClientDirectory } from "./clients/registry-client-directory.ts";
export { DEFAULT_CODE_TTL_SECONDS } from "./codes/authorization-codes.ts";
export {
  revocationCheck as accessTokenRevocationCheck,
  markKey,
  LOADED_KEY,
  REVOCATION_KINDS,
  type RevocableToken,
} from "@gatehouse/rpc";
export { DEFAULT_REFRESH_IDLE_TTL_SECONDS, DEFAULT_REFRESH_TOKEN_TTL_SECONDS } from "./settings.ts";
export { rotateSigningKeysNow } from "./keys/rotate.ts";
export type { Rotation } from "./keys/signing-key-store.ts";
