import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, audit, OPERATOR_ACTOR } from "./admin-flows.ts";
import {
  exported,
  familyHashes,
  FIREBASE,
  importDone,
  jobDone,
  outboxFor,
  PASSWORD,
  postImport,
  userLine,
} from "./import-flows.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, loginEnvelope, send, type FlowApp } from "./user-flows.ts";

// Contract section 15 through the whole system: an NDJSON import with a hash
// of every family, login with each (and the rehash to argon2id), duplicates,
// bad lines, no message sent, the export's round trip, scopes and audit.
describe.each([
  ["PostgreSQL + Redis", false],
  ["the embedded default", true],
])("user import and export on %s", (_name, embedded) => {
  let s: TestStack;
  let app: FlowApp;
  beforeAll(async () => {
    s = await startTestStack({ embedded });
    app = await createApp(s, "migr");
  });
  afterAll(() => s.close());

  const login = (email: string, password = PASSWORD, a = app) =>
    send(s, "POST", "/activityid/v1/user/access", a.token, a.entrypoint, loginEnvelope(a, email, password));
  const tag = () => `imp${Date.now()}${Math.random().toString(36).slice(2, 6)}`;

  it("imports a hash of every family; each logs in once rehashed to argon2id, no message is sent", async () => {
    const t = tag();
    const families = await familyHashes();
    const emails = Object.keys(families).map((f) => `${t}.${f}@example.com`.toLowerCase());
    const body = Object.values(families)
      .map((h, i) => userLine(emails[i]!, h.password, { created: "2020-01-02T03:04:05.000Z" }))
      .join("\n");
    const job = await importDone(s, app.entrypoint, `${body}\n`, FIREBASE.params);
    expect(job).toMatchObject({ status: "done", imported: emails.length, skipped: 0, failed: [], skips: [] });
    expect(await outboxFor(s, new Set(emails))).toEqual([]);

    const hashes = async () =>
      new Map(
        (await exported(s, { hashes: true })).lines
          .filter((l) => emails.includes(l.ids.email.value))
          .map((l) => [l.ids.email.value as string, l.password as unknown]),
      );
    const before = await hashes();
    expect(before.get(emails[0]!)).toBe(families.bcrypt!.password);
    const plains = Object.values(families).map((h) => h.plain);
    for (const [i, email] of emails.entries()) {
      expect((await login(email, `${plains[i]}-wrong`)).statusCode).toBe(403);
      const ok = await login(email, plains[i]);
      expect([email, ok.statusCode]).toEqual([email, 200]);
    }
    const after = await hashes();
    for (const email of emails)
      expect([email, String(after.get(email))]).toEqual([email, expect.stringMatching(/^\$argon2id\$/)]);
    // Once: the argon2id hash stays, and still logs in.
    expect((await login(emails[0]!)).statusCode).toBe(200);
    expect((await hashes()).get(emails[0]!)).toBe(after.get(emails[0]!));
    expect((await admin(s, "GET", `/admin/v1/users?q=${emails[0]}`)).json().content.items[0].created).toBe(
      "2020-01-02T03:04:05.000Z",
    );
  });

  it("skips taken id values with their holder, fails bad lines by line and field, never a partial user", async () => {
    const t = tag();
    const taken = await loggedUser(s, app, `${t}.taken@example.com`);
    const lines = [
      userLine(`${t}.a@example.com`, "$2b$06$" + "a".repeat(53).replace(/a/g, ".")),
      userLine(`${t}.taken@example.com`, undefined),
      "{not json",
      "",
      userLine(`${t}.b@example.com`, "md5:5f4dcc3b5aa765d61d8327deb882cf99"),
      JSON.stringify({ ids: { email: { objectType: "user_id", value: `${t}.c@example.com` } } }),
      userLine(`${t}.d@example.com`, undefined, { role: "admin" }),
      userLine(`${t}.a@example.com`, undefined),
      userLine(`${t}.e@example.com`, undefined, { confirmed: ["phone_number"] }),
      userLine("not-an-email", undefined),
      userLine(`${t}.f@example.com`, undefined, { confirmed: [] }),
    ];
    const job = await importDone(s, app.entrypoint, lines.join("\n"));
    expect(job).toMatchObject({ status: "done", lines: 11, imported: 2, skipped: 2, failedCount: 6 });
    expect(job.failed).toEqual([
      { line: 3, code: "invalid_json", field: "" },
      { line: 5, code: "unsupported_hash", field: "password" },
      { line: 6, code: "required", field: "datas.name.value" },
      { line: 7, code: "unknown_member", field: "role" },
      { line: 9, code: "invalid_value", field: "confirmed" },
      { line: 10, code: expect.any(String), field: "ids.email.value" },
    ]);
    const firstId = (await admin(s, "GET", `/admin/v1/users?q=${t}.a@example.com`)).json().content.items[0].id;
    expect(job.skips).toEqual([
      { line: 2, code: "identifier_taken", field: "ids.email", user: String(taken.id) },
      { line: 8, code: "identifier_taken", field: "ids.email", user: String(firstId) },
    ]);
    const found = (await admin(s, "GET", `/admin/v1/users?q=${t}.`))
      .json()
      .content.items.map((u: { ids: { email: { value: string } } }) => u.ids.email.value);
    expect(found.sort()).toEqual([`${t}.a@example.com`, `${t}.f@example.com`, `${t}.taken@example.com`]);
    // An unconfirmed main id meets the 412 at login (here: a user without a password cannot pass the 403 first).
    expect((await login(`${t}.f@example.com`)).statusCode).toBe(403);
  });

  it("an unconfirmed main id follows the 412 flow", async () => {
    const t = tag();
    const job = await importDone(
      s,
      app.entrypoint,
      userLine(`${t}@example.com`, (await familyHashes()).bcrypt!.password, { confirmed: [] }),
    );
    expect(job.imported).toBe(1);
    const res = await login(`${t}@example.com`);
    expect(res.statusCode).toBe(412);
    expect(await outboxFor(s, new Set([`${t}@example.com`]))).toEqual([]);
  });

  it("export round trip: every user imports into an empty Gatehouse and logs in with the same password", async () => {
    const t = tag();
    const families = await familyHashes();
    const emails = [`${t}.x@example.com`, `${t}.y@example.com`];
    await importDone(
      s,
      app.entrypoint,
      [userLine(emails[0]!, families.scrypt!.password), userLine(emails[1]!, FIREBASE.hash)].join("\n"),
      FIREBASE.params,
    );
    const { res, lines } = await exported(s, { hashes: true });
    expect(res.headers["content-type"]).toMatch(/^application\/x-ndjson/);
    const ours = lines.filter((l) => emails.includes(l.ids.email.value));
    expect(ours).toHaveLength(2);
    const other = await startTestStack({ embedded });
    try {
      const target = await createApp(other, "migr2");
      const job = await importDone(other, target.entrypoint, res.body);
      expect(job).toMatchObject({ imported: lines.length, skipped: 0, failed: [] });
      const again = (email: string, password: string) =>
        send(
          other,
          "POST",
          "/activityid/v1/user/access",
          target.token,
          target.entrypoint,
          loginEnvelope(target, email, password),
        );
      expect((await again(emails[0]!, PASSWORD)).statusCode).toBe(200);
      expect((await again(emails[1]!, FIREBASE.password)).statusCode).toBe(200);
      const back = (await exported(other)).lines.find((l) => l.ids.email.value === emails[0]);
      const { password: _hash, ...withoutHash } = ours.find((l) => l.ids.email.value === emails[0]);
      expect(back).toEqual(withoutHash);
    } finally {
      await other.close();
    }
  });

  it("scopes: admin:write imports, admin:read reads progress and exports without hashes; every step audited", async () => {
    const read = await postImport(s, app.entrypoint, userLine(`${tag()}@example.com`), { scope: "admin:read" });
    expect([read.statusCode, read.json().errors.code]).toEqual([403, "insufficient_scope"]);
    const missing = await postImport(s, "no-such-entrypoint", "");
    expect(missing.statusCode).toBe(404);
    const json = await admin(s, "POST", `/admin/v1/users/import?entrypoint=${app.entrypoint}`, { body: {} });
    expect([json.statusCode, json.json().errors.code]).toEqual([415, "unsupported_media_type"]);
    const badFirebase = await postImport(s, app.entrypoint, "", { firebase: { signerKey: 1 } });
    expect(badFirebase.statusCode).toBe(400);
    const line = userLine(`${tag()}@example.com`, (await familyHashes()).pbkdf2sha256!.password);
    const started = await postImport(s, app.entrypoint, line, { scope: "admin:write" });
    expect(started.statusCode).toBe(202);
    const id = started.json().content.job.id;
    expect(started.json().content.job).toEqual({ id, status: "running" });
    expect((await jobDone(s, id)).imported).toBe(1);
    expect((await admin(s, "GET", "/admin/v1/users/import/nope", { scope: "admin:read" })).statusCode).toBe(404);

    const plain = await exported(s, { scope: "admin:read" });
    expect(plain.res.statusCode).toBe(200);
    expect(plain.lines.some((l) => "password" in l)).toBe(false);
    const refused = await exported(s, { scope: "admin:read", hashes: true });
    expect([refused.res.statusCode, refused.res.json().errors.code]).toEqual([403, "insufficient_scope"]);
    expect((await exported(s, { scope: "admin:write", hashes: true })).lines.some((l) => "password" in l)).toBe(true);

    const entries = await audit(s, { target: id });
    expect(entries.map((e) => [e.action, e.actor])).toEqual([
      ["users.import.done", OPERATOR_ACTOR],
      ["users.import", OPERATOR_ACTOR],
    ]);
    expect(entries[0]!.details).toMatchObject({ imported: 1, skipped: 0, failed: 0 });
    const exports = await audit(s, { action: "users.export" });
    expect(exports.slice(0, 2).map((e) => e.details.hashes)).toEqual([true, false]);
  });

  it("a job whose feeder died (nothing moved it for 5 minutes) is finished as it stands when read, audited as interrupted", async () => {
    const t = tag();
    const lines = [userLine(`${t}.a@example.com`), userLine(`${t}.b@example.com`)].join("\n");
    const id = (await postImport(s, app.entrypoint, lines, { scope: "admin:write" })).json().content.job.id as string;
    await jobDone(s, id);
    // Two jobs as a killed gateway leaves them: running, one last moved 6 minutes ago, one a minute ago.
    const insert = (job: string, minutes: number) =>
      s.stores.db.query(
        `INSERT INTO users.import_jobs (id, entrypoint_id, client_id, actor, lines, imported, updated_at)
         SELECT $1, entrypoint_id, client_id, actor, 2, 2, now() - make_interval(mins => $2) FROM users.import_jobs WHERE id = $3`,
        [job, minutes, id],
      );
    await insert(`${id}-dead`, 6);
    await insert(`${id}-slow`, 1);
    const read = async (job: string) =>
      (await admin(s, "GET", `/admin/v1/users/import/${job}`, { scope: "admin:read" })).json().content;
    const dead = await read(`${id}-dead`);
    expect(dead.job.status).toBe("done");
    expect(dead.job.imported).toBe(2);
    const slow = await read(`${id}-slow`);
    expect(slow.job.status).toBe("running");
    const entries = await audit(s, { target: `${id}-dead` });
    expect(entries.map((e) => e.action)).toEqual(["users.import.done"]);
    expect(entries[0]!.details).toMatchObject({ lines: 2, imported: 2, interrupted: true });
    expect(await audit(s, { target: `${id}-slow` })).toEqual([]);
  });
});
