import type { CliCommand } from "./command.ts";

export const bootstrapOperator: CliCommand = {
  path: ["bootstrap-operator"],
  summary: "create an operator client (or rotate its secret) and print its credentials",
  help: [
    'Prints {"client_id", "client_secret", "created"}. The client may call POST /v2/apps and the admin API',
    "(client_credentials; scopes apps:write apps:read admin admin:read admin:write).",
    "Without --client-secret: a new client gets a generated secret, an existing one prints the secret it has.",
    "With it: that secret (an existing client's secret is rotated to it).",
  ].join("\n"),
  options: [
    { flags: "--client-id <id>", summary: "the operator's client_id", default: "operator" },
    { flags: "--client-secret <secret>", summary: "its secret (default: generated, or the stored one)" },
  ],
  async run({ options }, ctx) {
    const [{ bootstrapOperator: ensureOperator }, { openCliServices }] = await Promise.all([
      import("../bootstrap.ts"),
      import("./services.ts"),
    ]);
    const services = await openCliServices(ctx.config(), ctx.logger());
    try {
      const op = await ensureOperator(
        services.registry,
        { clientId: options.clientId!, clientSecret: options.clientSecret },
        ctx.logger(),
      );
      return { client_id: op.clientId, client_secret: op.clientSecret, created: op.created };
    } finally {
      await services.close();
    }
  },
};
