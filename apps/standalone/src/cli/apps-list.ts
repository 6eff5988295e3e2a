import { whole, type CliCommand } from "./command.ts";

export const appsList: CliCommand = {
  path: ["apps", "list"],
  summary: "list applications, or find them by client_id prefix or name (as GET /admin/v1/apps)",
  help: 'Prints {"items": [...], "next"?} in client_id order; pass "next" back with --cursor for the next page.',
  options: [
    { flags: "-q, --q <text>", summary: "a client_id prefix or a displayName substring (any case)" },
    { flags: "--limit <n>", summary: "at most this many (1-200, default 50)" },
    { flags: "--cursor <cursor>", summary: "the next page (the previous answer's next)" },
  ],
  async run({ options }, ctx) {
    const pageSize = whole(options.limit, "--limit");
    const [{ adminApplicationToJson, page }, { openCliServices }] = await Promise.all([
      import("@gatehouse/gateway"),
      import("./services.ts"),
    ]);
    const services = await openCliServices(ctx.config(), ctx.logger());
    try {
      const res = await services.registryAdmin.listApplications({
        query: options.q ?? "",
        pageSize,
        pageToken: options.cursor ?? "",
      });
      return page(res.applications.map(adminApplicationToJson), res.nextPageToken);
    } finally {
      await services.close();
    }
  },
};
