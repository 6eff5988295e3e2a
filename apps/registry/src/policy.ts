import { INTERNAL_SCOPE, type ScopePolicy } from "@gatehouse/rpc";

/** Scopes of which a caller of each RegistryService method needs one. */
export const registryPolicy: ScopePolicy = {
  createApplication: ["apps:write"],
  getApplication: ["apps:read", "apps:write", INTERNAL_SCOPE],
  getEntrypoint: [INTERNAL_SCOPE],
  authenticateClient: [INTERNAL_SCOPE],
  revealClientSecret: ["admin:read", "admin"],
  ensureOperatorClient: [INTERNAL_SCOPE],
  listCatalog: ["apps:read", "apps:write", "admin:read", "admin", INTERNAL_SCOPE],
  updateApplicationSettings: ["admin:write", "admin"],
};
