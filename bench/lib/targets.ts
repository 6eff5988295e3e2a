import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startChild, startNodeChild, type NodeChild } from "./child.ts";
import { freePort, waitReady } from "./ready.ts";
import { BENCH_REDIS_URL, dropRedisPrefix, freshDatabase, uniqueRedisPrefix } from "./stores.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** A running token server under test, with the client credentials the bench uses. */
export interface Target {
  name: string;
  baseUrl: string;
  tokenPath: string;
  /** RFC 7662 introspection, and the client that gets the introspected token and introspects it. */
  introspectPath: string;
  introspectionClientId: string;
  clientId: string;
  clientSecret: string;
  child: NodeChild;
  stop(): Promise<void>;
}

/** Extra node flags for a child, e.g. BENCH_CPU_PROF=dir adds --cpu-prof. */
function profileFlags(name: string): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? ["--cpu-prof", `--cpu-prof-dir=${join(dir, name)}`] : [];
}

/** The token signing algorithm of both servers (like for like): BENCH_ALG, RS256 (Gatehouse's default) unless set. */
export const BENCH_ALG = process.env.BENCH_ALG ?? "RS256";

/** Exactly what `npm start` runs (scripts/start.sh: the cached build, production flags); profile flags through NODE_OPTIONS. */
export function startNpmStart(name: string, entry: "main" | "services", env: Record<string, string>): NodeChild {
  const flags = profileFlags(name);
  const nodeOptions = [process.env.NODE_OPTIONS, ...flags].filter(Boolean).join(" ");
  return startChild(name, "sh", [join(root, "scripts/start.sh"), entry], {
    ...env,
    ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
  });
}

/** `npm start` on PostgreSQL (a fresh database) + Redis (a fresh prefix), with a bootstrapped operator client; `extra`: more environment. */
export async function startGatehouse(extra: Record<string, string> = {}): Promise<Target> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const db = await freshDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), "gh-bench-"));
  const prefix = uniqueRedisPrefix();
  const clientId = "bench-operator";
  const clientSecret = "bench-operator-secret-0123456789";
  const child = startNpmStart("gatehouse", "main", {
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: baseUrl,
    DATABASE_URL: db.url,
    REDIS_URL: BENCH_REDIS_URL,
    REDIS_PREFIX: prefix,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    BOOTSTRAP_OPERATOR_CLIENT_ID: clientId,
    BOOTSTRAP_OPERATOR_CLIENT_SECRET: clientSecret,
    SIGNING_ALG: BENCH_ALG,
    ...extra,
  });
  const cleanup = async () => {
    await child.stop();
    await dropRedisPrefix(prefix);
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitReady(`${baseUrl}/readyz`, child);
  } catch (err) {
    await cleanup();
    throw err;
  }
  return {
    name: "gatehouse",
    baseUrl,
    tokenPath: "/oauth2/token",
    introspectPath: "/oauth2/introspect",
    introspectionClientId: clientId,
    clientId,
    clientSecret,
    child,
    stop: cleanup,
  };
}

/** The peer: panva's oidc-provider issuing JWT access tokens for client_credentials (bench/peer-oidc-provider.ts). */
export async function startOidcProvider(): Promise<Target> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const clientId = "bench-client";
  const clientSecret = "bench-client-secret-0123456789";
  const child = startNodeChild(
    "oidc-provider",
    join(root, "bench/peer-oidc-provider.ts"),
    {
      PEER_PORT: String(port),
      PEER_ISSUER: baseUrl,
      PEER_CLIENT_ID: clientId,
      PEER_CLIENT_SECRET: clientSecret,
      PEER_ALG: BENCH_ALG,
    },
    profileFlags("oidc-provider"),
  );
  try {
    await waitReady(`${baseUrl}/.well-known/openid-configuration`, child);
  } catch (err) {
    await child.stop();
    throw err;
  }
  // oidc-provider introspects only the opaque tokens it stores (bench/peer-oidc-provider.ts).
  return {
    name: "oidc-provider",
    baseUrl,
    tokenPath: "/token",
    introspectPath: "/token/introspection",
    introspectionClientId: `${clientId}-opaque`,
    clientId,
    clientSecret,
    child,
    stop: () => child.stop(),
  };
}
