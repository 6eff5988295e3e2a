import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { serverBuilt, SERVER_DIST } from "./server-build.ts";
import { OPERATOR } from "./stack-helpers.ts";

// Ports handed out in this process: the kernel may offer a port again as soon
// as the probe closes it, and a test that asks for several ports (the gateway
// and each service of start:services) would then give two processes one port.
const handedOut = new Set<number>();

/** A free TCP port on the loopback interface, never one this process handed out before. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await probePort();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

function probePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The environment of a server spawned on `port` (its URL `gw`): loopback, a
 * fresh SECRET_KEY, the bootstrap operator, warnings only; `stores` says
 * where its data lives (DATA_DIR, DATABASE_URL, REDIS_URL…), `extra` the rest.
 */
export function serverEnv(port: number, stores: Record<string, string>, extra: Record<string, string> = {}) {
  const gw = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: gw,
    SECRET_KEY: randomBytes(32).toString("base64url"),
    BOOTSTRAP_OPERATOR_CLIENT_ID: OPERATOR.id,
    BOOTSTRAP_OPERATOR_CLIENT_SECRET: OPERATOR.secret,
    LOG_LEVEL: "warn",
    ...stores,
    ...extra,
  };
  return { gw, env };
}

/**
 * The V8 flags scripts/start.sh gives `npm start`, `start:services` and the
 * CLI: the embedded database's WebAssembly on V8's baseline tier alone (no
 * DATABASE_URL) halves a process's start-up CPU (~5.9 to ~2.9 s) and its
 * memory (~780 to ~245 MB); start:services passes them on to its children.
 */
export function startFlags(env: NodeJS.ProcessEnv): string[] {
  return [
    "--disable-warning=ExperimentalWarning",
    "--max-semi-space-size=8",
    ...(env.DATABASE_URL ? [] : ["--liftoff-only"]),
  ];
}

export type Spawned = ChildProcess & { output: () => string };

/** Runs one of the server's entry points as `npm start`, `npm run start:services` and `npm run cli` do (scripts/start.sh, without npm). */
export async function runEntry(
  entry: "main" | "services" | "replicas" | "cli",
  args: string[],
  env: Record<string, string>,
): Promise<Spawned> {
  await serverBuilt();
  // No balancer watches these servers: SIGTERM stops them without the drain's delay unless a test sets one.
  const fullEnv = { SHUTDOWN_DELAY_S: "0", ...process.env, ...env };
  const child = spawn(process.execPath, [...startFlags(fullEnv), join(SERVER_DIST, `${entry}.js`), ...args], {
    env: fullEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  return Object.assign(child, { output: () => out });
}

export async function waitReady(
  url: string,
  child: { output: () => string; exitCode: number | null },
  ms = 60_000,
): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`process exited early:\n${child.output()}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    // A refused connection costs next to nothing: polling often spares a start most of a wait.
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not ready after ${ms} ms:\n${child.output()}`);
}

export async function stopChild(child: ChildProcess): Promise<number | null> {
  // Exited already (a signal leaves exitCode null and sets signalCode).
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}
