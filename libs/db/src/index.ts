export * from "./db.ts";
export * from "./migrate.ts";
export { DataDirLockedError, lockDataDir, LOCK_FILE } from "./owner-lock.ts";
