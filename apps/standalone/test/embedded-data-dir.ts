import { seedPgliteDataDir } from "@gatehouse/testing";

/**
 * Gives a new embedded DATA_DIR (npm start's, or start:services' DATA_DIR/<service>)
 * a copy of the tests' initdb'd PGlite cluster (libs/testing, one per PGlite
 * version on this machine), so that the server or CLI started on it skips
 * initdb (migrations still run at its start). An existing database is left
 * as it is. Loading the template through PGlite in the test process instead
 * cost ~2.5 s of CPU and ~150 MB more resident each time.
 */
export function seedEmbeddedDataDir(dataDir: string): Promise<void> {
  return seedPgliteDataDir(dataDir);
}
