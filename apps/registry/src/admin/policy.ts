import type { ScopePolicy } from "@gatehouse/rpc";

const READ = ["admin:read", "admin"];
const WRITE = ["admin:write", "admin"];

/** RegistryAdminService: operators only (admin:read reads, admin:write changes, admin both). */
export const registryAdminPolicy: ScopePolicy = {
  listApplications: READ,
  getApplicationRecord: READ,
  updateApplication: WRITE,
  rotateClientSecret: WRITE,
  addEntrypoint: WRITE,
  updateEntrypoint: WRITE,
  listCatalogEntries: READ,
  createCatalogEntry: WRITE,
  updateCatalogEntry: WRITE,
  deleteCatalogEntry: WRITE,
  listAssertionHistory: READ,
  listRegistryAuditEntries: READ,
};
