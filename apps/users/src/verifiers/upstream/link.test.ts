import type { AuditLog } from "@gatehouse/admin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, caller, failure, startUsers, uniqueEmail, userObject, type Harness } from "../../../test/harness.ts";
import { dataOver } from "../../stores.ts";
import type { Transactional } from "../../transactional.ts";
import { linkIdentity, type LinkStores } from "./link.ts";

// A link and its audit entry commit together: an identity is never linked
// without its `user.identity.link` entry (the audit trail of a sign-in).
describe.each(backends)("linking an upstream identity on %s", (_name, open) => {
  let h: Harness;
  let data: Transactional<LinkStores>;
  beforeAll(async () => {
    h = await startUsers(open);
    data = dataOver(h.db, async () => undefined);
  });
  afterAll(() => h.close());

  const newUser = async () =>
    (
      await h.users.registerUser({
        caller: caller("open"),
        object: userObject(uniqueEmail(), { datas: { surname: { objectType: "data", value: "Pérez" } } }),
      })
    ).user!.id;
  const linked = async (userId: string) =>
    (await h.db.query<{ provider: string }>("SELECT provider FROM users.identities WHERE user_id = $1", [userId])).rows;
  const entries = async (userId: string) =>
    (
      await h.db.query<{ action: string }>("SELECT action FROM users.audit_log WHERE target = $1 ORDER BY id", [userId])
    ).rows.map((r) => r.action);
  const identity = (subject: string) => ({ provider: "acme", subject, email: uniqueEmail() });
  const how = { via: "trusted_email" as const, address: "203.0.113.9" };

  it("links with its audit entry; a taken identity is already_linked and writes nothing", async () => {
    const [a, b] = [await newUser(), await newUser()];
    const subject = `s-${Date.now()}`;
    await linkIdentity(data, a, identity(subject), how);
    expect(await linked(a)).toEqual([{ provider: "acme" }]);
    expect(await entries(a)).toContain("user.identity.link");
    const f = await failure(linkIdentity(data, b, identity(subject), how));
    expect([f.reason, f.metadata.reason]).toEqual(["UPSTREAM_LOGIN_FAILED", "already_linked"]);
    expect(await linked(b)).toEqual([]);
    expect(await entries(b)).not.toContain("user.identity.link");
  });

  it("an audit entry that cannot be written leaves no link", async () => {
    const user = await newUser();
    const broken: AuditLog["record"] = async () => {
      throw new Error("audit store down");
    };
    const failing: Transactional<LinkStores> = {
      ...data,
      tx: (fn) => data.tx((s) => fn({ ...s, audit: { record: broken } })),
    };
    await expect(linkIdentity(failing, user, identity(`t-${Date.now()}`), how)).rejects.toThrow("audit store down");
    expect(await linked(user)).toEqual([]);
  });
});
