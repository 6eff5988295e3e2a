import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabase, pgliteTemplate } from "@gatehouse/testing";
import { migrate, openDb, statementNames, type Db } from "./index.ts";

async function migrationsDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "gh-mig-"));
  await writeFile(join(dir, "001_items.sql"), "CREATE TABLE demo.items (id int PRIMARY KEY, v jsonb NOT NULL);");
  await writeFile(join(dir, "002_more.sql"), "ALTER TABLE demo.items ADD COLUMN note text;");
  return dir;
}

const cases: [string, () => Promise<Db>][] = [
  ["PostgreSQL", async () => openDb({ databaseUrl: (await freshDatabase()).url })],
  ["PGlite", async () => openDb({ dataDir: "memory://", template: await pgliteTemplate() })],
];

describe.each(cases)("db on %s", (_name, open) => {
  const opened: Db[] = [];
  afterAll(async () => {
    for (const d of opened) await d.close();
  });
  it("migrates once even when replicas race, and runs transactions", async () => {
    const db = await open();
    opened.push(db);
    const dir = await migrationsDir();
    const runs = await Promise.all([migrate(db, { schema: "demo", dir }), migrate(db, { schema: "demo", dir })]);
    expect(runs.flat().sort()).toEqual(["001_items.sql", "002_more.sql"]);
    expect(await migrate(db, { schema: "demo", dir })).toEqual([]);
    await db.tx(async (q) => {
      await q.query("INSERT INTO demo.items (id, v) VALUES ($1, $2)", [1, JSON.stringify({ a: 1 })]);
    });
    await expect(
      db.tx(async (q) => {
        await q.query("INSERT INTO demo.items (id, v) VALUES ($1, $2)", [2, "{}"]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const { rows } = await db.query<{ id: number; v: { a: number } }>("SELECT id, v FROM demo.items ORDER BY id");
    expect(rows).toEqual([{ id: 1, v: { a: 1 } }]);
    expect(await db.ping()).toBe(true);
  });
});

describe("PGlite template", () => {
  it("fills a new data directory from a dump and opens an existing one as it is", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "gh-db-template-"));
    const first = await openDb({ dataDir, template: await pgliteTemplate() });
    await first.exec("CREATE TABLE kept (v int); INSERT INTO kept VALUES (7);");
    await first.close();
    // The template would be an empty cluster: the table survives because an existing directory is not refilled.
    const again = await openDb({ dataDir, template: await pgliteTemplate() });
    try {
      expect((await again.query<{ v: number }>("SELECT v FROM kept")).rows).toEqual([{ v: 7 }]);
    } finally {
      await again.close();
    }
  });
});

describe("prepared statements on PostgreSQL", () => {
  it("names a text once (the same name on every call), a new text anew, and none past the bound", () => {
    const nameOf = statementNames(2);
    const a = nameOf("SELECT $1::int");
    expect(a).toMatch(/^gh_[\w-]{24}$/);
    expect(nameOf("SELECT $1::int")).toBe(a);
    const b = nameOf("SELECT $1::text");
    expect(b).not.toBe(a);
    expect(nameOf("SELECT $1::date")).toBeUndefined();
    expect(nameOf("SELECT $1::int")).toBe(a);
  });

  it("runs parameterised queries as named statements, each text prepared once per connection, and unparameterised SQL unnamed", async () => {
    const db = await openDb({ databaseUrl: (await freshDatabase()).url, poolSize: 1 });
    try {
      const texts = ["SELECT $1::int + 1 AS n", "SELECT $1::text AS t"];
      for (let i = 0; i < 3; i++) {
        expect((await db.query<{ n: number }>(texts[0]!, [i])).rows).toEqual([{ n: i + 1 }]);
        expect((await db.query<{ t: string }>(texts[1]!, [`x${i}`])).rows).toEqual([{ t: `x${i}` }]);
      }
      await db.query("SELECT 1");
      // pg_prepared_statements lists this connection's (the pool has one) statements.
      const prepared = await db.query<{ name: string; statement: string }>(
        "SELECT name, statement FROM pg_prepared_statements ORDER BY statement",
      );
      expect(prepared.rows.map((r) => r.statement).sort()).toEqual([...texts].sort());
      const nameOf = statementNames();
      expect(prepared.rows.map((r) => r.name).sort()).toEqual(texts.map((t) => nameOf(t)!).sort());
    } finally {
      await db.close();
    }
  });
});
