import { createLogger } from "@gatehouse/logging";
import { serveOne, SERVICES, type ServiceName } from "../serve/index.ts";
import { KEEP_RUNNING, type CliCommand } from "./command.ts";

export const serve: CliCommand = {
  path: ["serve"],
  summary: "run one service as its own process (what each container runs; start:services runs all five)",
  help: "A server: it logs on stdout like npm start, and stops on SIGTERM or SIGINT.",
  arguments: [{ name: "<service>", summary: "the service to run", choices: SERVICES }],
  async run({ args }, ctx) {
    const name = args[0] as ServiceName;
    const config = ctx.config();
    await serveOne(name, config, createLogger(name, config.logLevel));
    return KEEP_RUNNING;
  },
};
