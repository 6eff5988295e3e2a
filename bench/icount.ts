import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./lib/ready.ts";
import { sendOnce, type LoadRequest } from "./lib/load.ts";
import { tokenRequest } from "./lib/scenario.ts";
import { BENCH_REDIS_URL, dropRedisPrefix, freshDatabase, uniqueRedisPrefix } from "./lib/stores.ts";
import type { Target } from "./lib/targets.ts";
import { clientCredentialsForm } from "./scenarios/client-credentials.ts";

// Instructions per request of the server (valgrind's callgrind counts every
// instruction of every thread), independent of the machine's load, which
// makes CPU-time A/Bs noisy on a shared machine:
//   npm run bench:icount -- /path/to/worktree [client_credentials|introspection] [requests]
// `npm start` of that worktree (PostgreSQL + Redis) runs under callgrind (~50x
// slower); after a warm-up the counters are zeroed, `requests` requests sent
// (4 in flight), and the instructions counted since are divided by them.

const root = process.argv[2] ?? join(import.meta.dirname, "..");
const scenario = process.argv[3] ?? "introspection";
const count = Number(process.argv[4] ?? 2000);
const warmUp = Number(process.env.ICOUNT_WARM_UP ?? 1500);

const dir = mkdtempSync(join(tmpdir(), "gh-icount-"));
// `node` on PATH for scripts/start.sh: the server's own node under callgrind, anything else as is.
writeFileSync(
  join(dir, "node"),
  `#!/bin/sh\ncase "$*" in *dist/server/main.js*) exec valgrind --tool=callgrind --callgrind-out-file=${dir}/cg.%p --dump-line=no --collect-jumps=no ${process.execPath} "$@";; esac\nexec ${process.execPath} "$@"\n`,
);
chmodSync(join(dir, "node"), 0o755);

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const db = await freshDatabase();
const prefix = uniqueRedisPrefix();
const t = {
  baseUrl,
  tokenPath: "/oauth2/token",
  introspectPath: "/oauth2/introspect",
  clientId: "bench-operator",
  clientSecret: "bench-operator-secret-0123456789",
} as Target;
const child = spawn("sh", [join(root, "scripts/start.sh"), "main"], {
  env: {
    ...process.env,
    PATH: `${dir}:${process.env.PATH}`,
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: baseUrl,
    DATABASE_URL: db.url,
    REDIS_URL: BENCH_REDIS_URL,
    REDIS_PREFIX: prefix,
    DATA_DIR: dir,
    LOG_LEVEL: "warn",
    // valgrind is ~50x slower: the store deadlines would fail requests.
    REDIS_COMMAND_TIMEOUT_MS: "20000",
    BOOTSTRAP_OPERATOR_CLIENT_ID: t.clientId,
    BOOTSTRAP_OPERATOR_CLIENT_SECRET: t.clientSecret,
    SIGNING_ALG: process.env.BENCH_ALG ?? "RS256",
  },
  stdio: ["ignore", "inherit", "inherit"],
});
// vgdb names its pipes after HOST, which the server's environment sets (127.0.0.1): the same here.
const control = (flag: string) =>
  execFileSync("callgrind_control", [flag, String(child.pid)], { env: { ...process.env, HOST: "127.0.0.1" } });
try {
  for (let ready = false; !ready; await new Promise((r) => setTimeout(r, 1000))) {
    if (child.exitCode !== null) throw new Error("the server exited");
    ready = (await fetch(`${baseUrl}/readyz`).catch(() => undefined))?.ok ?? false;
  }
  const token = await sendOnce(tokenRequest(t, clientCredentialsForm));
  const basic = Buffer.from(`${t.clientId}:${t.clientSecret}`).toString("base64");
  const req: LoadRequest =
    scenario === "client_credentials"
      ? tokenRequest(t, clientCredentialsForm)
      : {
          url: `${baseUrl}${t.introspectPath}`,
          method: "POST",
          headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ token: String(token.access_token) }).toString(),
        };
  const send = async (n: number) => {
    const r = await runAmount(req, n);
    // Under valgrind a store deadline (1 s) is sometimes missed: a few failures are reported, many fail the count.
    const failed = r.non2xx + r.errors + r.timeouts;
    if (failed > n / 100) throw new Error(`failures: ${JSON.stringify(r.statusCodes)}`);
    if (failed) console.warn(`${failed} failed requests: ${JSON.stringify(r.statusCodes)}`);
  };
  // The warm-up's first requests may time out under valgrind (a 1 s store deadline while code compiles).
  await runAmount(req, warmUp);
  control("--zero");
  await send(count);
  control("--dump");
  // The dump of the measured requests: cg.<pid>.1 (the final one, at exit, is cg.<pid>).
  const dump = join(dir, readdirSync(dir).find((f) => /^cg\.\d+\.1$/.test(f)) ?? "missing");
  const totals = /^(?:totals|summary): (\d+)/m.exec(readFileSync(dump, "utf8"))?.[1];
  console.log(
    `${root} ${scenario}: ${(Number(totals) / count / 1000).toFixed(1)} k instructions per request (${count} requests)`,
  );
} finally {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  await dropRedisPrefix(prefix);
  await db.drop();
}

async function runAmount(r: LoadRequest, amount: number) {
  const autocannon = (await import("autocannon")).default;
  // `amount` (stop after that many requests) is an autocannon option its types lack.
  const options = { ...r, connections: 4, pipelining: 1, amount, timeout: 60 } as Parameters<typeof autocannon>[0];
  const res = await autocannon(options);
  return { non2xx: res.non2xx, errors: res.errors, timeouts: res.timeouts, statusCodes: res.statusCodeStats };
}
