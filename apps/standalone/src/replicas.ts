import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, loadConfig, type Config } from "@gatehouse/config";
import { createLogger } from "@gatehouse/logging";
import { haproxyConfig, replicaEnv, topology, type Replica } from "./replicas/topology.ts";
import { exitWithParent } from "./parent-watch.ts";

// npm run start:replicas: two replicas of every service behind haproxy on
// PostgreSQL + Redis (docs/operations.md "Running many replicas"). A replica
// that exits is started again, as an orchestrator would: `kill <pid>` of any
// replica (listed in DATA_DIR/replicas/replicas.json) is a rolling restart's step.
const cli = fileURLToPath(new URL("./cli.ts", import.meta.url));

let config: Config;
try {
  config = loadConfig();
  if (!config.databaseUrl || !config.redisUrl)
    throw new ConfigError("start:replicas needs DATABASE_URL and REDIS_URL (what the replicas share)");
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`configuration error: ${err.message}`);
  process.exit(2);
}
const logger = createLogger("replicas", config.logLevel);
const peerHost = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
const base = config.port + 100;
const ports = process.env.REPLICA_PORTS
  ? process.env.REPLICA_PORTS.split(",").map(Number)
  : Array.from({ length: 10 }, (_, i) => base + i);
const t = topology(
  {
    gateway: config.port,
    registry: config.servicePorts.registry,
    auth: config.servicePorts.auth,
    users: config.servicePorts.users,
  },
  ports,
);
const dir = join(config.dataDir, "replicas");
mkdirSync(dir, { recursive: true });
const cfg = join(dir, "haproxy.cfg");
writeFileSync(cfg, haproxyConfig(t, config.host, peerHost));

const running = new Map<Replica, ChildProcess>();
let stopping = false;
const haproxy = spawn(process.env.HAPROXY ?? "haproxy", ["-db", "-f", cfg], { stdio: "inherit" });
haproxy.on("error", (err) => {
  logger.error({ err }, "haproxy did not start (install it: apt-get install haproxy)");
  stop(1);
});
haproxy.on("exit", (code) => !stopping && (logger.error({ code }, "haproxy exited"), stop(1)));

/** Where each replica runs now (tests and operators read it to stop one). */
function writeState() {
  const replicas = [...running].map(([r, c]) => ({ ...r, pid: c.pid }));
  // Whole or not at all: a reader never sees half a file.
  writeFileSync(join(dir, "replicas.json.tmp"), JSON.stringify({ haproxy: haproxy.pid, front: t.front, replicas }));
  renameSync(join(dir, "replicas.json.tmp"), join(dir, "replicas.json"));
}

function start(r: Replica) {
  const child = spawn(process.execPath, [...process.execArgv, cli, "serve", r.service], {
    stdio: "inherit",
    env: { ...process.env, ...replicaEnv(t, r, peerHost) },
  });
  running.set(r, child);
  writeState();
  child.on("exit", (code, signal) => {
    if (stopping) return;
    logger.warn({ replica: `${r.service}-${r.index}`, code, signal }, "replica exited: starting it again");
    start(r);
  });
}

function stop(code: number) {
  if (stopping) return;
  stopping = true;
  const children = [...running.values()].filter((c) => c.exitCode === null && c.signalCode === null);
  for (const c of children) c.kill("SIGTERM");
  let left = children.length;
  const done = () => {
    haproxy.kill("SIGTERM");
    process.exit(code);
  };
  if (left === 0) done();
  for (const c of children) c.once("exit", () => --left === 0 && done());
  setTimeout(done, 40_000).unref();
}

process.once("SIGTERM", () => stop(0));
process.once("SIGINT", () => stop(0));
exitWithParent(logger, () => {
  stopping = true;
  for (const c of running.values()) c.kill("SIGKILL");
  haproxy.kill("SIGKILL");
  process.exit(1);
});
for (const r of t.replicas) start(r);
logger.info(
  { front: t.front, replicas: t.replicas.map((r) => `${r.service}-${r.index}:${r.port}`), haproxy: cfg },
  "two replicas of every service behind haproxy",
);
