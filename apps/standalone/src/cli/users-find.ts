import { whole, type CliCommand } from "./command.ts";

export const usersFind: CliCommand = {
  path: ["users", "find"],
  summary:
    "find users by email, phone number, screen name, object id or pulse_id; exact or prefix (as GET /admin/v1/users?q=)",
  help: 'Prints {"items": [...], "next"?} in object id order; pass "next" back with --cursor for the next page.',
  arguments: [{ name: "<query>", summary: 'what to look for ("" lists everybody)' }],
  options: [
    { flags: "--limit <n>", summary: "at most this many (1-200, default 50)" },
    { flags: "--cursor <cursor>", summary: "the next page (the previous answer's next)" },
  ],
  async run({ args, options }, ctx) {
    const pageSize = whole(options.limit, "--limit");
    const [{ adminUserToJson, page }, { openCliServices }] = await Promise.all([
      import("@gatehouse/gateway"),
      import("./services.ts"),
    ]);
    const services = await openCliServices(ctx.config(), ctx.logger(), { users: true });
    try {
      const res = await services.usersAdmin!.searchUserAccounts({
        query: args[0]!,
        pageSize,
        pageToken: options.cursor ?? "",
      });
      return page(res.users.map(adminUserToJson), res.nextPageToken);
    } finally {
      await services.close();
    }
  },
};
