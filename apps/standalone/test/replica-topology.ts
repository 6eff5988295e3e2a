import { randomBytes } from "node:crypto";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freshDatabase, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { freePort, runEntry, serverEnv, stopChild, waitReady, type Spawned } from "./processes.ts";

// npm run start:replicas as a test runs it: two replicas of every service
// behind haproxy on PostgreSQL + Redis, each replica's own port known (from
// DATA_DIR/replicas/replicas.json), so a test can reach one replica or stop it.

export interface RunningReplica {
  service: string;
  index: number;
  port: number;
  pid: number;
}

export interface ReplicaTopology {
  /** The balancer's public address (the gateways behind it). */
  gw: string;
  dataDir: string;
  child: Spawned;
  /** The replicas as the launcher last wrote them. */
  replicas(): Promise<RunningReplica[]>;
  /** One replica's own address. */
  url(service: string, index: number): Promise<string>;
  /** SIGTERM to one replica; resolves once the launcher started it again and it is ready (and back in the balancer). */
  restart(service: string, index: number): Promise<{ exitedInMs: number }>;
  close(): Promise<void>;
}

const readyOf = async (url: string) =>
  fetch(`${url}/readyz`).then(
    (r) => r.status === 200,
    () => false,
  );

export async function startReplicas(extra: Record<string, string> = {}): Promise<ReplicaTopology> {
  const front = [await freePort(), await freePort(), await freePort(), await freePort()];
  const ports = await Promise.all(Array.from({ length: 10 }, () => freePort()));
  const dataDir = await mkdtemp(join(tmpdir(), "gh-replicas-"));
  const { gw, env } = serverEnv(
    front[0]!,
    {
      DATA_DIR: dataDir,
      DATABASE_URL: (await freshDatabase()).url,
      REDIS_URL: redisTestUrl(),
      REDIS_PREFIX: uniquePrefix(),
    },
    {
      REGISTRY_PORT: String(front[1]),
      AUTH_PORT: String(front[2]),
      USERS_PORT: String(front[3]),
      REPLICA_PORTS: ports.join(","),
      // The load's idle connections (undici: the Keep-Alive hint minus 2 s) end before a replica's delay does.
      SHUTDOWN_DELAY_S: "3",
      // Twelve processes on a CI machine that runs other suites beside: a Redis answer can wait on a starved event
      // loop longer than the 500 ms default, which is not what this test measures.
      REDIS_COMMAND_TIMEOUT_MS: "3000",
      HTTP_KEEP_ALIVE_S: "3",
      SECRET_KEY: randomBytes(32).toString("base64url"),
      ...extra,
    },
  );
  const child = await runEntry("replicas", [], env);
  const replicas = async (): Promise<RunningReplica[]> =>
    JSON.parse(await readFile(join(dataDir, "replicas", "replicas.json"), "utf8")).replicas;
  const url = async (service: string, index: number) => {
    const r = (await replicas()).find((x) => x.service === service && x.index === index);
    if (!r) throw new Error(`no replica ${service}-${index}`);
    return `http://127.0.0.1:${r.port}`;
  };
  await waitReady(`${gw}/readyz`, child, 90_000);
  for (const r of await replicas()) await waitReady(`http://127.0.0.1:${r.port}/readyz`, child, 60_000);
  return {
    gw,
    dataDir,
    child,
    replicas,
    url,
    async restart(service, index) {
      const before = (await replicas()).find((x) => x.service === service && x.index === index)!;
      const t0 = Date.now();
      process.kill(before.pid, "SIGTERM");
      let exitedInMs = 0;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`the launcher exited:\n${child.output()}`);
        const now = (await replicas()).find((x) => x.service === service && x.index === index)!;
        if (now.pid !== before.pid) {
          exitedInMs ||= Date.now() - t0;
          if (await readyOf(`http://127.0.0.1:${now.port}`)) break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      // haproxy checks every 500 ms and takes a replica back at its first 200.
      await new Promise((r) => setTimeout(r, 600));
      return { exitedInMs };
    },
    async close() {
      await stopChild(child);
    },
  };
}
