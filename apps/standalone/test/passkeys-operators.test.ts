import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin } from "./admin-flows.ts";
import { passkeyFlows, type PasskeyFlows } from "./passkey-flows.ts";

// Passkeys for operators (contract section 12): the count in the admin user
// view, the export's list, erasure, and removing a user's passkeys (audited).
describe.each([
  ["PostgreSQL + Redis", false],
  ["the embedded default", true],
])("passkeys for operators on %s", (_name, embedded) => {
  let f: PasskeyFlows;
  beforeAll(async () => {
    f = await passkeyFlows(embedded);
  });
  afterAll(() => f.s.close());

  it("operators see the count, the export lists the passkeys and erasure removes them", async () => {
    const u = await f.enrolled();
    const viewed = await admin(f.s, "GET", `/admin/v1/users/${u.id}`);
    expect(viewed.json().content.user.passkeys).toBe(1);
    const exported = await admin(f.s, "GET", `/admin/v1/users/${u.id}/export`);
    const passkeys = JSON.stringify(exported.json().content).match(/"passkeys":\[[^\]]*\]/)?.[0] ?? "";
    expect(passkeys).toContain(`"id":"${u.id2}"`);
    expect(passkeys).toContain('"name":"Laptop"');
    expect(passkeys).not.toContain(u.auth.credentials[0]!.id);
    expect((await admin(f.s, "DELETE", `/admin/v1/users/${u.id}`)).statusCode).toBe(204);
    const left = await f.s.stores.db.query(`SELECT count(*)::int AS n FROM users.passkeys WHERE user_id = $1`, [
      String(u.id),
    ]);
    expect(left.rows[0]).toEqual({ n: 0 });
    expect((await f.signIn(u.auth)).statusCode).toBe(403);
  });

  it("operators remove a user's passkeys (audited): they stop working at once", async () => {
    const u = await f.enrolled();
    const removed = await admin(f.s, "DELETE", `/admin/v1/users/${u.id}/passkeys`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().content).toMatchObject({ removed: 1, user: { id: u.id, passkeys: 0 } });
    expect((await f.signIn(u.auth)).statusCode).toBe(403);
    const entries = (await admin(f.s, "GET", `/admin/v1/audit?target=${u.id}&action=user.passkeys.remove`)).json()
      .content.items;
    expect(entries[0]).toMatchObject({ action: "user.passkeys.remove", details: { removed: 1 } });
    expect((await admin(f.s, "DELETE", `/admin/v1/users/1234567890123456/passkeys`)).statusCode).toBe(404);
    expect((await admin(f.s, "DELETE", `/admin/v1/users/${u.id}/passkeys`, { scope: "admin:read" })).statusCode).toBe(
      403,
    );
  });
});
