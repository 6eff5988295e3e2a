import type { Db, Migrations } from "@gatehouse/db";
import { authMigrations } from "@gatehouse/auth";
import { registryMigrations } from "@gatehouse/registry";
import { usersMigrations } from "@gatehouse/users";
import { migrateSchemas } from "./store-drivers.ts";

export { closeStores, openStores, type Stores } from "./store-drivers.ts";

export const allMigrations: Migrations[] = [registryMigrations, authMigrations, usersMigrations];

export async function migrateAll(db: Db, which: Migrations[] = allMigrations): Promise<Record<string, string[]>> {
  return migrateSchemas(db, which);
}
