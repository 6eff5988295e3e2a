import {
  ADMIN_READ_SCOPES,
  ADMIN_WRITE_SCOPES,
  APPS_READ_SCOPE,
  APPS_WRITE_SCOPE,
  INTERNAL_SCOPE,
  type ScopePolicy,
} from "@gatehouse/rpc";

/** Scopes of which a caller of each RegistryService method needs one. */
export const registryPolicy: ScopePolicy = {
  createApplication: [APPS_WRITE_SCOPE],
  getApplication: [APPS_READ_SCOPE, APPS_WRITE_SCOPE, INTERNAL_SCOPE],
  getEntrypoint: [INTERNAL_SCOPE],
  authenticateClient: [INTERNAL_SCOPE],
  revealClientSecret: ADMIN_READ_SCOPES,
  ensureOperatorClient: [INTERNAL_SCOPE],
  ensureConsoleApplication: [INTERNAL_SCOPE],
  listCatalog: [APPS_READ_SCOPE, APPS_WRITE_SCOPE, ...ADMIN_READ_SCOPES, INTERNAL_SCOPE],
  updateApplicationSettings: ADMIN_WRITE_SCOPES,
};
