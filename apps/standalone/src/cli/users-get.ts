import type { CliCommand } from "./command.ts";

export const usersGet: CliCommand = {
  path: ["users", "get"],
  summary: "a user with status, last login, sessions and MFA (as GET /admin/v1/users/{id})",
  help: "Sessions live in Redis (REDIS_URL) or in the server's memory: without Redis the CLI counts none.",
  arguments: [{ name: "<id>", summary: "the user's object id or pulse_id" }],
  async run({ args }, ctx) {
    const [{ adminUserToJson }, { openCliServices }] = await Promise.all([
      import("@gatehouse/gateway"),
      import("./services.ts"),
    ]);
    const services = await openCliServices(ctx.config(), ctx.logger(), { users: true });
    try {
      const res = await services.usersAdmin!.getUserAccount({ userId: args[0]! });
      return adminUserToJson(res.account!);
    } finally {
      await services.close();
    }
  },
};
