import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import type { Config } from "@gatehouse/config";
import type { Stores } from "./stores.ts";

/** A directory as the operator typed it: relative to the working directory when inside it. */
const shown = (dir: string) => {
  const rel = relative(process.cwd(), dir);
  return rel && !rel.startsWith("..") ? `./${rel}` : dir;
};

/** True before the first start on an embedded DATA_DIR (no database there yet). */
export const isFirstStart = (config: Config) => !config.databaseUrl && !existsSync(join(config.dataDir, "pglite"));

/** The ready line of npm start: where it answers, its docs, and on which drivers it runs. */
export function readyLine(config: Config, stores: Stores): { facts: Record<string, unknown>; msg: string } {
  const url = config.publicBaseUrl;
  const database =
    stores.db.kind === "pglite"
      ? `the embedded database (PGlite) in ${shown(config.dataDir)}`
      : "PostgreSQL (DATABASE_URL)";
  const state =
    stores.kv.kind === "redis" ? "Redis (REDIS_URL)" : "sessions, limits and the delivery queue in this process";
  const missing = [config.smtpUrl ? "" : "SMTP_URL", config.smsWebhookUrl ? "" : "SMS_WEBHOOK_URL"].filter(Boolean);
  const messages = missing.length
    ? `; messages to ${shown(join(config.dataDir, "outbox"))} and this log (no ${missing.join(", no ")})`
    : "";
  return {
    facts: {
      url,
      docs: `${url}/docs`,
      listen: `${config.host}:${config.port}`,
      database: stores.db.kind,
      state: stores.kv.kind,
    },
    msg: `Gatehouse ready at ${url} (API docs ${url}/docs) on ${database}, ${state}${messages}`,
  };
}

/** What a first start on a fresh DATA_DIR made, and the next step of README's walkthrough. */
export function firstStartLine(config: Config): string {
  const key = config.secretKey ? "" : `, and secret.key (it encrypts the stored secrets: keep it with the data)`;
  const operator = config.bootstrapOperator
    ? `operator client ${config.bootstrapOperator.clientId} created from BOOTSTRAP_OPERATOR_CLIENT_ID`
    : 'no operator client yet: stop the server and run `npm run --silent cli -- bootstrap-operator`, or start it with BOOTSTRAP_OPERATOR_CLIENT_ID and BOOTSTRAP_OPERATOR_CLIENT_SECRET (README, "Try it")';
  return `first start: created ${shown(config.dataDir)} with the embedded database${key}; ${operator}`;
}

const LISTEN_ERRORS: Record<string, (port: number) => string> = {
  EADDRINUSE: (port) => `the address is in use (another process holds PORT ${port})`,
  EACCES: (port) => `permission denied (PORT ${port} needs privileges this process lacks)`,
  EADDRNOTAVAIL: () => "HOST is not an address of this machine",
};

/** One line for a PORT/HOST the server cannot listen on, or undefined for any other error. */
export function listenFailure(err: unknown): string | undefined {
  const e = err as { syscall?: string; code?: string; address?: string; port?: number };
  const why = e?.syscall === "listen" && e.code ? LISTEN_ERRORS[e.code] : undefined;
  return why && `cannot listen on ${e.address}:${e.port}: ${why(e.port ?? 0)}`;
}
