import type { CliCommand } from "./command.ts";

export const appsGet: CliCommand = {
  path: ["apps", "get"],
  summary: "an application with its entry points and settings, never its password (as GET /admin/v1/apps/{id})",
  arguments: [{ name: "<client_id>", summary: "the application's id" }],
  async run({ args }, ctx) {
    // Imported when run: `serve` (every container) loads only its service (docs/performance.md).
    const [{ adminApplicationToJson }, { openCliServices }] = await Promise.all([
      import("@gatehouse/gateway"),
      import("./services.ts"),
    ]);
    const services = await openCliServices(ctx.config(), ctx.logger());
    try {
      const res = await services.registryAdmin.getApplicationRecord({ clientId: args[0]! });
      return adminApplicationToJson(res.application!);
    } finally {
      await services.close();
    }
  },
};
