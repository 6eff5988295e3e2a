import { createReadStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import bcrypt from "bcryptjs";
import { sendOnce } from "../lib/load.ts";
import { freePort, waitReady } from "../lib/ready.ts";
import { tokenRequest } from "../lib/scenario.ts";
import { startGatehouse, startNpmStart, type Target } from "../lib/targets.ts";
import { createBenchApp } from "../lib/users.ts";

// Contract section 15's speed: 100,000 users imported (POST
// /admin/v1/users/import, NDJSON streamed from a file) on the embedded
// default and on PostgreSQL, timed from the first byte sent to the job's
// "done", with the server's RSS sampled throughout (memory stays flat: the
// body is spooled to a file, batches are 1,000 lines).

export interface ImportMeasured {
  store: "embedded" | "postgres";
  users: number;
  seconds: number;
  usersPerSecond: number;
  imported: number;
  failed: number;
  rssBeforeMb: number | undefined;
  rssPeakMb: number | undefined;
  rssAfterMb: number | undefined;
  /** The RSS (MB) when a quarter, half, three quarters and all of the users were in: flat means no growth with the count. */
  rssByQuarterMb: (number | undefined)[];
}

const OPERATOR = { id: "bench-operator", secret: "bench-operator-secret-0123456789" };

/** `npm start` with no stores configured (PGlite under DATA_DIR, in-process state) and the bench's operator client. */
async function startEmbedded(): Promise<Target> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), "gh-bench-import-"));
  const child = startNpmStart("embedded", "main", {
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    BOOTSTRAP_OPERATOR_CLIENT_ID: OPERATOR.id,
    BOOTSTRAP_OPERATOR_CLIENT_SECRET: OPERATOR.secret,
  });
  const stop = async () => {
    await child.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  await waitReady(`${baseUrl}/readyz`, child, 120_000).catch(async (err: unknown) => {
    await stop();
    throw err;
  });
  const base = { tokenPath: "/oauth2/token", introspectPath: "/oauth2/introspect" };
  return {
    name: "embedded",
    baseUrl,
    ...base,
    introspectionClientId: OPERATOR.id,
    clientId: OPERATOR.id,
    clientSecret: OPERATOR.secret,
    child,
    stop,
  };
}

/**
 * The file: `count` users of the bench entry point (an email, a name), each
 * with the same bcrypt hash: an import stores a hash without verifying it,
 * so one hash made once stands for any (a real one, of a real length).
 */
async function writeUsers(file: string, count: number): Promise<void> {
  const hash = bcrypt.hashSync("bench password 123", 10);
  const chunk: string[] = [];
  await writeFile(file, "");
  for (let i = 0; i < count; i++) {
    chunk.push(
      JSON.stringify({
        ids: { email: { objectType: "user_id", value: `import.${i}@bench.example.com` } },
        datas: { name: { objectType: "data", value: `User ${i}` } },
        confirmed: ["email"],
        password: hash,
        created: "2021-05-06T07:08:09Z",
      }),
    );
    if (chunk.length === 10_000 || i === count - 1) {
      await writeFile(file, chunk.join("\n") + "\n", { flag: "a" });
      chunk.length = 0;
    }
  }
}

export async function importScenario(store: "embedded" | "postgres", count: number): Promise<ImportMeasured> {
  const dir = await mkdtemp(join(tmpdir(), "gh-bench-ndjson-"));
  const file = join(dir, "users.ndjson");
  await writeUsers(file, count);
  const t = store === "embedded" ? await startEmbedded() : await startGatehouse();
  try {
    const app = await createBenchApp(t);
    const op = await sendOnce(tokenRequest(t, { grant_type: "client_credentials", scope: "admin" }));
    const auth = { authorization: `Bearer ${String(op.access_token)}` };
    const rssBeforeMb = t.child.rssMb();
    let rssPeakMb = rssBeforeMb ?? 0;
    const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, t.child.rssMb() ?? 0)), 100);
    const quarters: (number | undefined)[] = [];
    const started = performance.now();
    try {
      const res = await fetch(`${t.baseUrl}/admin/v1/users/import?entrypoint=${app.entrypointId}`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/x-ndjson" },
        body: Readable.toWeb(createReadStream(file)) as ReadableStream,
        duplex: "half",
      } as RequestInit);
      const body = (await res.json()) as { content: { job: { id: string } } };
      if (res.status !== 202) throw new Error(`import answered ${res.status}: ${JSON.stringify(body)}`);
      for (;;) {
        const job = (await sendOnce({
          url: `${t.baseUrl}/admin/v1/users/import/${body.content.job.id}`,
          method: "GET",
          headers: auth,
        })) as { content: { job: { status: string; imported: number; failedCount: number } } };
        while (quarters.length < 4 && job.content.job.imported >= ((quarters.length + 1) * count) / 4)
          quarters.push(t.child.rssMb());
        if (job.content.job.status === "done") {
          const seconds = (performance.now() - started) / 1000;
          const { imported, failedCount } = job.content.job;
          return {
            store,
            users: count,
            seconds: Math.round(seconds * 10) / 10,
            usersPerSecond: Math.round(imported / seconds),
            imported,
            failed: failedCount,
            rssBeforeMb,
            rssPeakMb,
            rssAfterMb: t.child.rssMb(),
            rssByQuarterMb: quarters,
          };
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      clearInterval(sampler);
    }
  } finally {
    await t.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export function printImport(rows: ImportMeasured[]): void {
  console.log("\nuser import (contract section 15: 100,000 users in under 60 s on the embedded default)");
  console.log(
    "store      users    seconds  users/s  imported  failed  RSS before/peak/after (MB)  RSS at 25/50/75/100 %",
  );
  for (const r of rows)
    console.log(
      `${r.store.padEnd(10)} ${String(r.users).padEnd(8)} ${String(r.seconds).padEnd(8)} ${String(r.usersPerSecond).padEnd(8)} ${String(r.imported).padEnd(9)} ${String(r.failed).padEnd(7)} ${`${r.rssBeforeMb}/${r.rssPeakMb}/${r.rssAfterMb}`.padEnd(27)} ${r.rssByQuarterMb.join("/")}`,
    );
}
