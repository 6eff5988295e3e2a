import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ConfigError, loadConfig } from "@gatehouse/config";
import { createLogger } from "@gatehouse/logging";
import type { ServiceName } from "./serve/index.ts";
import { exitWithParent } from "./parent-watch.ts";

// npm run start:services: each service its own process, Connect over HTTP
// between them (the Kubernetes topology on one machine). The gateway listens
// on PORT; registry, auth and users on REGISTRY_PORT, AUTH_PORT, USERS_PORT;
// the confirmation worker serves its probes on WORKER_PORT.
const cli = fileURLToPath(new URL("./cli.ts", import.meta.url));
const children: ChildProcess[] = [];
let stopping = false;

function start(name: ServiceName): ChildProcess {
  const child = spawn(process.execPath, [...process.execArgv, cli, "serve", name], {
    stdio: "inherit",
    env: process.env,
  });
  child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`${name} exited (${signal ?? code}); stopping the others`);
    stop(1);
  });
  return child;
}

function stop(code: number) {
  if (stopping) return;
  stopping = true;
  for (const c of children) c.kill("SIGTERM");
  let left = children.filter((c) => c.exitCode === null).length;
  if (left === 0) process.exit(code);
  for (const c of children) c.once("exit", () => --left === 0 && process.exit(code));
  setTimeout(() => process.exit(code), 25_000).unref();
}

let config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`configuration error: ${err.message}`);
  process.exit(2);
}
const logger = createLogger("services", config.logLevel);

// The delivery queue is shared through Redis. Without REDIS_URL it lives in
// the users process's memory, so that process runs the worker itself.
const order: ServiceName[] = config.redisUrl
  ? ["registry", "auth", "users", "confirmation-worker", "gateway"]
  : ["registry", "auth", "users", "gateway"];
if (!config.redisUrl)
  logger.info(
    "no REDIS_URL: no separate confirmation-worker process; the users process delivers on its in-process queue",
  );

process.once("SIGTERM", () => stop(0));
process.once("SIGINT", () => stop(0));
// npm killed with -9: the services go too (each also watches this launcher, its own parent).
exitWithParent(logger, () => {
  stopping = true;
  for (const c of children) c.kill("SIGKILL");
  process.exit(1);
});

// No start order is needed: each service migrates its own schema and only
// calls its peers when a request arrives (or, for the worker, a job).
for (const name of order) children.push(start(name));
