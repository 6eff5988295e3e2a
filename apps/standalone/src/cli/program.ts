import { Argument, Command, CommanderError, Option } from "commander";
import { ConfigError, loadConfig, type Config } from "@gatehouse/config";
import { ConnectError, errorFacts, errorTable } from "@gatehouse/errors";
import { createLogger, type Logger } from "@gatehouse/logging";
import { GROUPS, KEEP_RUNNING, UsageError, type CliCommand, type CliContext } from "./command.ts";

export const RUN_AS = "npm run --silent cli --";

const ABOUT = `Gatehouse's command line: set-up, maintenance and operators' reads over the same services as the API.
Run it from the repository as: ${RUN_AS} <command> [options]   (--silent keeps npm's own lines off stdout)`;

const AFTER = `
Output: the answer as JSON on stdout (indented on a terminal) and nothing else;
logs and errors go to stderr (LOG_LEVEL, default warn; serve logs like npm start).
Exit status: 0 done; 1 failed, with one line on stderr saying why; 2 a wrong
command, option or configuration.
Configuration: the server's environment (DATA_DIR, DATABASE_URL, REDIS_URL,
SECRET_KEY, ...: docs/operations.md). With the embedded database (no
DATABASE_URL) stop the server first: one process owns DATA_DIR, and a command
refuses at once while a server runs there.`;

/** Where the CLI writes: stdout for answers and help, stderr for the rest. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** stdout is a terminal: indent the JSON. */
  tty: boolean;
}

const processIo: CliIo = {
  out: (t) => void process.stdout.write(t),
  err: (t) => void process.stderr.write(t),
  tty: process.stdout.isTTY === true,
};

/** One line of what went wrong in a command, for stderr. */
function failureLine(name: string, err: unknown): { line: string; code: number } {
  if (err instanceof ConfigError) return { line: `configuration error: ${err.message}`, code: 2 };
  // By name, not instanceof: importing @gatehouse/db here would load pg into every service process (the gateway's too).
  if (err instanceof Error && err.name === "DataDirLockedError") return { line: err.message, code: 1 };
  if (err instanceof UsageError) return { line: `error: ${err.message} (see ${RUN_AS} ${name} --help)`, code: 2 };
  if (err instanceof ConnectError) {
    const f = errorFacts(err);
    const fields = f.violations
      .map((v) => `${v.field}: ${v.code}${v.description && v.description !== v.code ? ` (${v.description})` : ""}`)
      .join("; ");
    return {
      line: `${name}: ${errorTable[f.reason].message.en}${fields ? ` (${fields})` : ""} [${f.reason.toLowerCase()}]`,
      code: 1,
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { line: `${name}: ${message.split("\n")[0]}`, code: 1 };
}

/** Help on stdout, errors on stderr in one line that names the help to read. */
const output = (io: CliIo, path: string) => ({
  writeOut: io.out,
  writeErr: io.err,
  // Commander puts its "(Did you mean ...?)" on a line of its own.
  outputError: (text: string, write: (s: string) => void) =>
    write(`${text.trim().replace(/\n+/g, " ")} (see ${RUN_AS} ${path ? `${path} ` : ""}--help)\n`),
});

/** What the command that ran did: set when its action starts, `result` once it returns. */
interface Ran {
  cmd?: CliCommand;
  result?: unknown;
}

/** The commander program of the given commands. */
function buildProgram(commands: readonly CliCommand[], ctx: CliContext, io: CliIo, ran: Ran): Command {
  const program = new Command("gatehouse")
    .description(ABOUT)
    .usage("<command> [options]")
    .addHelpText("after", AFTER)
    .helpCommand("help [command]", "the help of a command")
    .exitOverride()
    .configureOutput(output(io, ""));
  const groups = new Map<string, Command>();
  for (const def of commands) {
    let parent = program;
    if (def.path.length === 2) {
      const [group] = def.path;
      parent =
        groups.get(group) ??
        program
          .command(group)
          .description(GROUPS[group] ?? "")
          .usage("<command> [options]")
          .configureOutput(output(io, group));
      groups.set(group, parent);
    }
    const cmd = parent
      .command(def.path.at(-1)!)
      .description(def.summary)
      .configureOutput(output(io, def.path.join(" ")));
    for (const a of def.arguments ?? []) {
      const arg = new Argument(a.name, a.summary);
      cmd.addArgument(a.choices ? arg.choices(a.choices) : arg);
    }
    for (const o of def.options ?? []) {
      const opt = new Option(o.flags, o.summary);
      cmd.addOption(o.default === undefined ? opt : opt.default(o.default));
    }
    if (def.help) cmd.addHelpText("after", `\n${def.help}`);
    cmd.action(async (...params: unknown[]) => {
      const self = params.at(-1) as Command;
      ran.cmd = def;
      ran.result = await def.run(
        { args: self.processedArgs as string[], options: self.opts<Record<string, string | undefined>>() },
        ctx,
      );
    });
  }
  return program;
}

/**
 * Runs the CLI on `argv` (the words after `cli --`) with the environment's
 * configuration. Returns the exit status, or KEEP_RUNNING when the command
 * started a server.
 */
export async function runCli(
  commands: readonly CliCommand[],
  argv: string[],
  { io = processIo, env = process.env }: { io?: CliIo; env?: NodeJS.ProcessEnv } = {},
): Promise<number | typeof KEEP_RUNNING> {
  let config: Config | undefined;
  let logger: Logger | undefined;
  const ctx: CliContext = {
    config: () => (config ??= loadConfig(env)),
    logger: () => (logger ??= createLogger("cli", env.LOG_LEVEL || "warn", { stream: "stderr" })),
  };
  const ran: Ran = {};
  const program = buildProgram(commands, ctx, io, ran);
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === "commander.helpDisplayed" || err.code === "commander.version") return 0;
      // Usage mistakes (unknown command or option, missing argument) and a bare group: exit 2.
      return err.exitCode === 0 ? 0 : 2;
    }
    ctx.logger().debug({ err }, "command failed");
    const failure = failureLine(ran.cmd?.path.join(" ") ?? "gatehouse", err);
    io.err(`${failure.line}\n`);
    return failure.code;
  }
  if (!ran.cmd) return 0;
  if (ran.result === KEEP_RUNNING) return KEEP_RUNNING;
  io.out(`${JSON.stringify(ran.result, null, io.tty ? 2 : undefined)}\n`);
  return 0;
}
