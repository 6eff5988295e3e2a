import { access } from "node:fs/promises";
import { UsageError, type CliCommand } from "./command.ts";

export const usersImport: CliCommand = {
  path: ["users", "import"],
  summary: "import users from an NDJSON file through an entry point (as POST /admin/v1/users/import)",
  help:
    'Each line is a user in the import\'s form (docs/api.md, "Bulk import and export"); the same batches and checks as the API.\n' +
    'Prints the finished job: {"id", "status", "imported", "skipped", "failed": [{"line", "code", "field"}], "skips": [...]}.\n' +
    "Refuses while a server owns an embedded DATA_DIR (stop it, or use the API).",
  arguments: [{ name: "<file>", summary: "the NDJSON file" }],
  options: [
    { flags: "--entrypoint <id>", summary: "the entry point whose rules each line meets (required)" },
    {
      flags: "--firebase <json>",
      summary: 'Firebase\'s hash parameters: {"signerKey", "saltSeparator", "rounds", "memCost"}',
    },
  ],
  async run({ args, options }, ctx) {
    const file = args[0]!;
    if (!options.entrypoint) throw new UsageError("--entrypoint is required");
    await access(file).catch(() => {
      throw new UsageError(`cannot read ${file}`);
    });
    const [{ importFile }, { importJobJson }, { openCliServices }] = await Promise.all([
      import("@gatehouse/admin"),
      import("@gatehouse/gateway"),
      import("./services.ts"),
    ]);
    const services = await openCliServices(ctx.config(), ctx.logger(), { users: true });
    try {
      const users = services.usersAdmin!;
      const firebase = options.firebase ?? "";
      const started = await users.startUserImport({ entrypointId: options.entrypoint, firebaseParams: firebase });
      const jobId = started.job!.id;
      await importFile(users, { id: jobId, firebase }, file);
      return importJobJson((await users.getUserImport({ jobId })).job!, true);
    } finally {
      await services.close();
    }
  },
};
