import { pbkdf2Sync, randomBytes, scryptSync } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { hash as argon2Hash } from "@node-rs/argon2";
import bcrypt from "bcryptjs";
import { admin, opToken } from "./admin-flows.ts";
import type { TestStack } from "./stack-helpers.ts";

// Import lines with a hash of every family of contract section 15, made in
// the test by the real libraries, and the calls of the import's job.

export const PASSWORD = "correct horse battery";
const b64 = (b: Buffer) => b.toString("base64");
const phc = (b: Buffer) => b64(b).replace(/=+$/, "");

/** Firebase's published sample project and user (github.com/firebase/scrypt): a real export. */
export const FIREBASE = {
  params: {
    signerKey: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
    saltSeparator: "Bw==",
    rounds: 8,
    memCost: 14,
  },
  password: "user1password",
  hash: {
    algorithm: "firebase-scrypt",
    salt: "42xEC+ixf3L2lw==",
    hash: "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==",
  },
};

/** One hash of each family (name → the line's `password`) and the password it was made from. */
export async function familyHashes(): Promise<Record<string, { password: unknown; plain: string }>> {
  const salt = randomBytes(16);
  const bc = bcrypt.hashSync(PASSWORD, 6);
  const pb = (d: string, n: number) => phc(pbkdf2Sync(PASSWORD, salt, 1000, n, d));
  const argonRaw = await argon2Hash(PASSWORD, { algorithm: 2, memoryCost: 1024, timeCost: 2, parallelism: 1, salt });
  const of = (password: unknown, plain = PASSWORD) => ({ password, plain });
  return {
    bcrypt: of(bc),
    bcrypt2y: of(bc.replace(/^\$2b\$/, "$2y$")),
    argon2id: of(argonRaw),
    argon2i: of(await argon2Hash(PASSWORD, { algorithm: 1, memoryCost: 1024, timeCost: 2, parallelism: 1 })),
    scrypt: of(`$scrypt$ln=12,r=8,p=1$${phc(salt)}$${phc(scryptSync(PASSWORD, salt, 32, { N: 4096, r: 8, p: 1 }))}`),
    pbkdf2sha1: of(`$pbkdf2-sha1$i=1000$${phc(salt)}$${pb("sha1", 20)}`),
    pbkdf2sha256: of(`$pbkdf2-sha256$i=1000$${phc(salt)}$${pb("sha256", 32)}`),
    pbkdf2sha512: of(`$pbkdf2-sha512$i=1000$${phc(salt)}$${pb("sha512", 64)}`),
    // As Keycloak's realm export writes a user's credential.
    keycloak: of({
      type: "password",
      createdDate: 1700000000000,
      secretData: JSON.stringify({
        value: b64(pbkdf2Sync(PASSWORD, salt, 27500, 64, "sha512")),
        salt: b64(salt),
        additionalParameters: {},
      }),
      credentialData: JSON.stringify({ hashIterations: 27500, algorithm: "pbkdf2-sha512", additionalParameters: {} }),
    }),
    keycloakArgon2: of({
      type: "password",
      secretData: JSON.stringify({
        value: argonRaw.split("$").at(-1)! + "=",
        salt: b64(salt),
        additionalParameters: {},
      }),
      credentialData: JSON.stringify({
        hashIterations: 2,
        algorithm: "argon2",
        additionalParameters: {
          hashLength: ["32"],
          memory: ["1024"],
          type: ["id"],
          version: ["1.3"],
          parallelism: ["1"],
        },
      }),
    }),
    firebase: of(FIREBASE.hash, FIREBASE.password),
  };
}

/** An import line of the test entry point (email, mandatory name). */
export function userLine(email: string, password?: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    ids: { email: { objectType: "user_id", value: email } },
    datas: { name: { objectType: "data", value: "Ana" } },
    confirmed: ["email"],
    ...(password === undefined ? {} : { password }),
    ...extra,
  });
}

/** POST /admin/v1/users/import with an NDJSON body. */
export function postImport(
  s: TestStack,
  entrypoint: string,
  body: string,
  opts: { scope?: string; firebase?: unknown } = {},
) {
  const q = new URLSearchParams({ entrypoint, ...(opts.firebase ? { firebase: JSON.stringify(opts.firebase) } : {}) });
  return opToken(s, opts.scope ?? "admin").then((token) =>
    s.app.inject({
      method: "POST",
      url: `/admin/v1/users/import?${q}`,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
      payload: body,
    }),
  );
}

/** The job once done (polls GET /admin/v1/users/import/{id}). */
export async function jobDone(s: TestStack, id: string): Promise<any> {
  for (let i = 0; i < 600; i++) {
    const res = await admin(s, "GET", `/admin/v1/users/import/${id}`, { scope: "admin:read" });
    if (res.statusCode !== 200) throw new Error(`import job: ${res.statusCode} ${res.body}`);
    const { job, ...top } = res.json().content;
    // Section 15's fields read the same at the top of content and under job.
    if (JSON.stringify(top) !== JSON.stringify(job)) throw new Error(`import job: two shapes ${res.body}`);
    if (job.status === "done") return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("import job not done");
}

/** Imports and waits for the job. */
export async function importDone(s: TestStack, entrypoint: string, body: string, firebase?: unknown) {
  const res = await postImport(s, entrypoint, body, { firebase });
  if (res.statusCode !== 202) throw new Error(`import: ${res.statusCode} ${res.body}`);
  return jobDone(s, res.json().content.job.id);
}

/** The NDJSON lines of GET /admin/v1/users/export, parsed. */
export async function exported(s: TestStack, opts: { hashes?: boolean; scope?: string } = {}) {
  const res = await admin(s, "GET", `/admin/v1/users/export${opts.hashes ? "?include=hashes" : ""}`, {
    scope: opts.scope ?? "admin",
  });
  return {
    res,
    lines:
      res.statusCode === 200
        ? res.body
            .split("\n")
            .filter(Boolean)
            .map((l) => JSON.parse(l))
        : [],
  };
}

/** Every message the outbox holds for these addresses. */
export async function outboxFor(s: TestStack, to: Set<string>): Promise<string[]> {
  const dir = join(s.config.dataDir, "outbox");
  const hits: string[] = [];
  for (const f of await readdir(dir).catch(() => [] as string[])) {
    if (!f.endsWith(".json")) continue;
    const msg = JSON.parse(await readFile(join(dir, f), "utf8")) as { to: string };
    if (to.has(msg.to)) hits.push(msg.to);
  }
  return hits;
}
