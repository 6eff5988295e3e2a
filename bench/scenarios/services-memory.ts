import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { procRssMb } from "../lib/child.ts";
import { freePort, waitReady } from "../lib/ready.ts";
import { BENCH_REDIS_URL, dropRedisPrefix, freshDatabase, uniqueRedisPrefix } from "../lib/stores.ts";
import { startNpmStart } from "../lib/targets.ts";

const SETTLE_MS = 3000;

export interface ServiceRss {
  process: string;
  mb: number | undefined;
}

/** The child processes of `pid` with the service each serves (`cli.js serve <name>`). */
function serviceChildren(pid: number): { pid: number; name: string }[] {
  const out: { pid: number; name: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      if (/PPid:\s+(\d+)/.exec(status)?.[1] !== String(pid)) continue;
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      const serve = args.indexOf("serve");
      out.push({ pid: Number(entry), name: serve >= 0 ? (args[serve + 1] ?? "?") : args.join(" ") });
    } catch {
      // the process ended while listed
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** `npm run start:services` on PostgreSQL + Redis, idle: the RSS of the launcher and of each service process. */
export async function servicesMemory(): Promise<ServiceRss[]> {
  const [port, registryPort, authPort, usersPort, workerPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const db = await freshDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), "gh-bench-svc-"));
  const prefix = uniqueRedisPrefix();
  const url = (p: number) => `http://127.0.0.1:${p}`;
  const child = startNpmStart("start:services", "services", {
    PORT: String(port),
    HOST: "127.0.0.1",
    REGISTRY_PORT: String(registryPort),
    AUTH_PORT: String(authPort),
    USERS_PORT: String(usersPort),
    WORKER_PORT: String(workerPort),
    REGISTRY_URL: url(registryPort),
    AUTH_URL: url(authPort),
    USERS_URL: url(usersPort),
    PUBLIC_URL: url(port),
    DATABASE_URL: db.url,
    REDIS_URL: BENCH_REDIS_URL,
    REDIS_PREFIX: prefix,
    SECRET_KEY: randomBytes(32).toString("base64url"),
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
  });
  try {
    await waitReady(`${url(port)}/readyz`, child, 120_000);
    await waitReady(`${url(workerPort)}/readyz`, child, 60_000);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    return [
      { process: "launcher", mb: child.rssMb() },
      ...serviceChildren(child.pid).map((c) => ({ process: c.name, mb: procRssMb(c.pid) })),
    ];
  } catch (err) {
    console.error(`start:services output:\n${child.output()}`);
    throw err;
  } finally {
    await child.stop();
    await dropRedisPrefix(prefix);
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Embedded `npm start` (PGlite, in-process state), idle: RSS after its first start (initdb) and after a restart. */
export async function embeddedMemory(): Promise<ServiceRss[]> {
  const dataDir = await mkdtemp(join(tmpdir(), "gh-bench-embedded-"));
  const out: ServiceRss[] = [];
  try {
    for (const when of ["first start", "restart"]) {
      const port = await freePort();
      const child = startNpmStart("embedded", "main", {
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
      });
      try {
        await waitReady(`http://127.0.0.1:${port}/readyz`, child, 120_000);
        await new Promise((r) => setTimeout(r, SETTLE_MS));
        out.push({ process: `embedded, ${when}`, mb: child.rssMb() });
      } finally {
        await child.stop();
      }
    }
    return out;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
