import type { CliCommand } from "./command.ts";

export const rotateSigningKeys: CliCommand = {
  path: ["rotate-signing-keys"],
  summary: "the next signing key (SIGNING_ALG) starts signing; the old ones verify until their tokens expire",
  help: 'Prints {"alg", "active", "next", "retiring": [...]}. Running servers (PostgreSQL) follow within a minute.',
  async run(_input, ctx) {
    const config = ctx.config();
    const [{ authMigrations, rotateSigningKeysNow }, { closeStores, migrateAll, openStores }] = await Promise.all([
      import("@gatehouse/auth"),
      import("../stores.ts"),
    ]);
    const stores = await openStores(config);
    try {
      await migrateAll(stores.db, [authMigrations]);
      return { alg: config.signingAlg, ...(await rotateSigningKeysNow(stores.db, stores.keys, config)) };
    } finally {
      await closeStores(stores);
    }
  },
};
