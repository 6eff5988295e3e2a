import { timestampDate } from "@bufbuild/protobuf/wkt";
import { UsageError, type CliCommand } from "./command.ts";

export const createOperator: CliCommand = {
  path: ["create-operator"],
  summary: "create an operator person and print a one-time link to set the password",
  help: [
    'Prints {"email", "link", "expiresAt"}. The link (7 days, one use) opens the page that sets the',
    "operator's password; TOTP is then set up at the first sign-in to the console (/console).",
    "An email that is already registered (operator or not) is refused: nothing changes.",
  ].join("\n"),
  options: [{ flags: "--email <email>", summary: "the operator's email (their sign-in)" }],
  async run({ options }, ctx) {
    if (!options.email) throw new UsageError("required option '--email <email>' not specified");
    const config = ctx.config();
    // Imported when run: `serve` (every container) loads only its service (docs/performance.md).
    const [{ ACTIVATE_PATH }, { CONSOLE_REGISTRATION, ensureConsoleClient }, { openCliServices }] = await Promise.all([
      import("@gatehouse/gateway"),
      import("../console-bootstrap.ts"),
      import("./services.ts"),
    ]);
    const services = await openCliServices(config, ctx.logger(), { users: true });
    try {
      await ensureConsoleClient(services.registry, config, ctx.logger());
      const res = await services.usersAdmin!.createOperator({
        email: options.email,
        password: "",
        ...CONSOLE_REGISTRATION,
        ifAbsent: false,
      });
      const link = `${config.publicBaseUrl}${ACTIVATE_PATH}?token=${encodeURIComponent(res.activationToken)}`;
      return {
        email: options.email.trim().toLowerCase(),
        link,
        expiresAt: timestampDate(res.activationExpireTime!).toISOString(),
      };
    } finally {
      await services.close();
    }
  },
};
