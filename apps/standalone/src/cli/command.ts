import type { Config } from "@gatehouse/config";
import type { Logger } from "@gatehouse/logging";

/** What a command returns instead of an answer when it keeps running (a server). */
export const KEEP_RUNNING = Symbol("keep running");

/** What every command gets: the configuration (read when the command runs) and the CLI's logger (stderr). */
export interface CliContext {
  /** The environment's configuration; a ConfigError when it is wrong (exit 2). */
  config(): Config;
  logger(): Logger;
}

export interface CliArgument {
  /** As the help shows it: `<id>` (required) or `[id]` (optional). */
  name: string;
  summary: string;
  choices?: readonly string[];
}

export interface CliOption {
  /** Commander flags: `--client-id <id>`, `-q, --q <text>`. */
  flags: string;
  summary: string;
  default?: string;
}

export interface CliInput {
  /** The positional arguments, in the order declared. */
  args: string[];
  /** The options by their camel-cased long name (`--client-id` → `clientId`). */
  options: Record<string, string | undefined>;
}

/**
 * One command of `npm run --silent cli -- …`, in a file of its own and listed
 * in commands.ts. What `run` returns is printed as JSON on stdout (the only
 * thing there); KEEP_RUNNING leaves the process to the server it started.
 */
export interface CliCommand {
  /** Its words: `["migrate"]`, or a group and a name: `["apps", "list"]`. */
  path: readonly [string] | readonly [string, string];
  summary: string;
  /** More help, shown after the options. */
  help?: string;
  arguments?: readonly CliArgument[];
  options?: readonly CliOption[];
  run(input: CliInput, ctx: CliContext): Promise<unknown>;
}

/** Summaries of the groups (`apps`, `users`) for the top-level help. */
export const GROUPS: Record<string, string> = {
  apps: "find and read applications (RegistryAdminService)",
  users: "find and read users (UsersAdminService)",
};

/** A positive whole number of an option (`--limit 20`), else a usage error naming the option. */
export function whole(value: string | undefined, option: string): number {
  if (value === undefined) return 0;
  if (!/^[1-9][0-9]{0,5}$/.test(value))
    throw new UsageError(`option '${option}' must be a whole number from 1, got '${value}'`);
  return Number(value);
}

/** A mistake in how the command was called (exit 2), as commander's own. */
export class UsageError extends Error {
  override name = "UsageError";
}
