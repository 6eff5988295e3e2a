import { ADMIN_READ_SCOPES, ADMIN_WRITE_SCOPES, type ScopePolicy } from "@gatehouse/rpc";

const READ = ADMIN_READ_SCOPES;
const WRITE = ADMIN_WRITE_SCOPES;

/** RegistryAdminService: operators only (admin:read reads, admin:write changes, admin both). */
export const registryAdminPolicy: ScopePolicy = {
  listApplications: READ,
  getApplicationRecord: READ,
  updateApplication: WRITE,
  rotateClientSecret: WRITE,
  addEntrypoint: WRITE,
  updateEntrypoint: WRITE,
  listCatalogEntries: READ,
  getCatalogEntry: READ,
  createCatalogEntry: WRITE,
  updateCatalogEntry: WRITE,
  deleteCatalogEntry: WRITE,
  listAssertionHistory: READ,
  listRegistryAuditEntries: READ,
};
