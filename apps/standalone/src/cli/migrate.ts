import type { CliCommand } from "./command.ts";

export const migrate: CliCommand = {
  path: ["migrate"],
  summary: "apply every service's pending migrations, then exit (servers also do it at start)",
  help: 'Prints {"applied": {"<schema>": ["<migration>", ...]}}: what this run applied.',
  async run(_input, ctx) {
    const { closeStores, migrateAll, openStores } = await import("../stores.ts");
    const stores = await openStores(ctx.config());
    try {
      return { applied: await migrateAll(stores.db) };
    } finally {
      await closeStores(stores);
    }
  },
};
