import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin } from "./admin-flows.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser } from "./user-flows.ts";

// Every admin list (contract section 6): `limit` is an integer 1-200, and the
// cursor is opaque: one we did not make, or one with a character changed or
// added, is 400 (item `cursor`), never a page from somewhere else.

const LISTS = [
  "/admin/v1/apps",
  "/admin/v1/users",
  "/admin/v1/audit",
  "/admin/v1/assertions",
  "/admin/v1/catalogs/fields",
];

describe("admin lists: limit and cursor", () => {
  let s: TestStack;
  beforeAll(async () => {
    s = await startTestStack();
    const app = await createApp(s, "lists");
    await createApp(s, "lists2");
    await loggedUser(s, app);
    await loggedUser(s, app);
    for (const key of ["one", "two"]) {
      const res = await admin(s, "POST", "/admin/v1/assertions", {
        body: { key: `lists-${key}`, displayName: key, type: "terms", typology: "consumer", version: "1" },
      });
      expect(res.statusCode).toBe(201);
    }
  });
  afterAll(() => s.close());

  it("limit must be an integer from 1 to 200", async () => {
    for (const list of LISTS) {
      for (const limit of ["1.5", "1e2", " 1", "0x10", "2.0", "", "0", "201", "abc"]) {
        const res = await admin(s, "GET", `${list}?limit=${encodeURIComponent(limit)}`, { scope: "admin:read" });
        expect([list, limit, res.statusCode, res.json().errors?.items?.[0]?.field]).toEqual([
          list,
          limit,
          400,
          "query.limit",
        ]);
      }
      for (const limit of ["1", "200", "007"]) {
        expect([
          list,
          limit,
          (await admin(s, "GET", `${list}?limit=${limit}`, { scope: "admin:read" })).statusCode,
        ]).toEqual([list, limit, 200]);
      }
    }
  });

  it("a changed, extended or hand-made cursor is 400 (item cursor); the real one pages on", async () => {
    for (const list of LISTS) {
      const first = (await admin(s, "GET", `${list}?limit=1`, { scope: "admin:read" })).json().content;
      const next: string = first.next;
      expect([list, typeof next]).toEqual([list, "string"]);
      const mid = Math.floor(next.length / 2);
      const changed = next.slice(0, mid) + (next[mid] === "A" ? "B" : "A") + next.slice(mid + 1);
      const handMade = Buffer.from(JSON.stringify({ k: "a" })).toString("base64url");
      for (const cursor of [`${next}x`, `${next}AA`, changed, next.slice(0, -1), handMade, `${next}.x`]) {
        const res = await admin(s, "GET", `${list}?limit=1&cursor=${encodeURIComponent(cursor)}`, {
          scope: "admin:read",
        });
        expect([list, cursor, res.statusCode, res.json().errors?.items?.[0]]).toEqual([
          list,
          cursor,
          400,
          expect.objectContaining({ field: "cursor", code: "invalid_value" }),
        ]);
      }
      const second = await admin(s, "GET", `${list}?limit=1&cursor=${encodeURIComponent(next)}`, {
        scope: "admin:read",
      });
      expect([list, second.statusCode]).toEqual([list, 200]);
      expect(second.json().content.items[0]).not.toEqual(first.items[0]);
    }
  });
});
