import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type Db } from "@gatehouse/db";
import { dropTestDatabases, freshDatabase, pgliteDataDir } from "@gatehouse/testing";
import { auditLog } from "./log.ts";
import { listAuditEntries } from "./list.ts";
import { microsOfTimestamp, timestampOfMicros } from "./proto.ts";

// The same table and trigger as the services' migrations (registry 003, users 004).
const SCHEMA = `
CREATE SCHEMA t;
CREATE TABLE t.audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor text NOT NULL, action text NOT NULL, target text NOT NULL,
  address text NOT NULL DEFAULT '', details jsonb NOT NULL DEFAULT '{}'
);
CREATE FUNCTION t.audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege'; END $$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON t.audit_log FOR EACH ROW EXECUTE FUNCTION t.audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON t.audit_log FOR EACH STATEMENT EXECUTE FUNCTION t.audit_log_append_only();`;

describe.each([
  ["PostgreSQL", async () => openDb({ databaseUrl: (await freshDatabase()).url })],
  ["PGlite", async () => openDb({ dataDir: await pgliteDataDir() })],
] as const)("audit log on %s", (name, open) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
    await db.exec(SCHEMA);
  });
  afterAll(async () => {
    await db.close();
    if (name === "PostgreSQL") await dropTestDatabases();
  });

  it("lists newest first with filters, and pages by exact microsecond positions", async () => {
    const log = auditLog(db, "t.audit_log");
    // Several entries of one transaction share its time: the id orders them.
    await db.tx(async (q) => {
      for (const i of [1, 2, 3])
        await auditLog(q, "t.audit_log").record({
          actor: "client:op",
          action: "a.one",
          target: `x${i}`,
          address: "10.0.0.1",
          details: { n: i },
        });
    });
    await log.record({ actor: "user:42", action: "a.two", target: "x1" });
    const all = await log.list({}, undefined, 10);
    expect(all.map((r) => r.target)).toEqual(["x1", "x3", "x2", "x1"]);
    expect(all[0]).toMatchObject({ actor: "user:42", address: "", details: {} });
    expect(all[1]).toMatchObject({ actor: "client:op", address: "10.0.0.1", details: { n: 3 } });
    expect(all[1]!.timeUs).toBe(all[2]!.timeUs);

    expect((await log.list({ actor: "op" }, undefined, 10)).length).toBe(3);
    expect((await log.list({ actor: "client:op", target: "x2" }, undefined, 10)).map((r) => r.details)).toEqual([
      { n: 2 },
    ]);
    expect((await log.list({ action: "a.two" }, undefined, 10)).length).toBe(1);
    expect((await log.list({ sinceUs: all[0]!.timeUs }, undefined, 10)).length).toBe(1);
    expect((await log.list({ sinceUs: all[0]!.timeUs + 1n }, undefined, 10)).length).toBe(0);

    // After the second entry: the two older ones of the same transaction time, exactly.
    const after = await log.list({}, { timeUs: all[1]!.timeUs, id: all[1]!.id }, 10);
    expect(after.map((r) => r.id)).toEqual([all[2]!.id, all[3]!.id]);
    // A position at that time with a huge id keeps all of that time; id 0 none of it.
    expect((await log.list({}, { timeUs: all[1]!.timeUs, id: 2n ** 62n }, 10)).length).toBe(3);
    expect((await log.list({}, { timeUs: all[1]!.timeUs, id: 0n }, 10)).length).toBe(0);
    expect(microsOfTimestamp(timestampOfMicros(all[1]!.timeUs))).toBe(all[1]!.timeUs);
  });

  it("answers a page with `more`, and refuses bad sizes", async () => {
    const page = await listAuditEntries(db, "t.audit_log", { pageSize: 2 });
    expect(page.entries).toHaveLength(2);
    expect(page.more).toBe(true);
    await expect(listAuditEntries(db, "t.audit_log", { pageSize: 201 })).rejects.toThrow();
  });

  it("refuses UPDATE, DELETE and TRUNCATE of entries in the database itself", async () => {
    await auditLog(db, "t.audit_log").record({ actor: "client:op", action: "a.keep", target: "y" });
    await expect(db.query("UPDATE t.audit_log SET actor = 'someone else'")).rejects.toThrow(/append-only/);
    await expect(db.query("DELETE FROM t.audit_log")).rejects.toThrow(/append-only/);
    await expect(db.exec("TRUNCATE t.audit_log")).rejects.toThrow(/append-only/);
    expect(
      (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM t.audit_log WHERE action = 'a.keep'")).rows[0]!.n,
    ).toBe(1);
  });
});
