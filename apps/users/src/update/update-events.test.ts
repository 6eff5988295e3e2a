import type { JsonObject } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpdateMode } from "@gatehouse/proto";
import { backends, caller, CLIENT_ID, startUsers, uniqueEmail, userObject, type Harness } from "../../test/harness.ts";

const PASSWORD = "correct horse battery";
const data = (value: string | null) => ({ objectType: "data", value });

// What a patch leaves behind besides its answer: its events (content and
// order) and the row, and the answer is the user as read after the change.
describe.each(backends)("a patch's events and row on %s", (_name, open) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startUsers(open);
  });
  afterAll(async () => {
    await h.close();
  });

  async function confirmedUser() {
    const email = uniqueEmail();
    const reg = await h.users.registerUser({ caller: caller("web"), object: userObject(email) });
    await h.users.confirmIdentifier({ linkToken: h.lastDelivery(email).secrets.linkToken });
    return { email, userId: reg.user!.id, pulseId: reg.user!.pulseId };
  }
  const patch = (userId: string, object: Record<string, unknown>, password = PASSWORD) =>
    h.users.updateUser({
      caller: caller("web"),
      mode: UpdateMode.PATCH,
      actorUserId: userId,
      targetUserId: userId,
      object: JSON.parse(JSON.stringify({ objectType: "user", password, ...object })) as JsonObject,
    });
  const events = async (userId: string) =>
    (
      await h.db.query<{ type: string; application: string | null; data: unknown }>(
        `SELECT type, application, data FROM users.events
          WHERE data->'user'->>'id' = $1 AND type IN ('user.updated', 'user.password_changed') ORDER BY seq`,
        [userId],
      )
    ).rows;
  const row = async (userId: string) =>
    (
      await h.db.query<{ version: number; password_hash: string; datas: Record<string, unknown> }>(
        "SELECT version, password_hash, datas FROM users.users WHERE id = $1",
        [userId],
      )
    ).rows[0]!;

  it("writes user.updated then user.password_changed with the change, and answers the row as read after it", async () => {
    const { userId, pulseId } = await confirmedUser();
    const before = await row(userId);
    const newEmail = uniqueEmail();
    const res = await patch(userId, {
      datas: { birthday: data("1990-05-17"), name: data("Eva") },
      ids: { email: { objectType: "user_id", value: newEmail } },
      newPassword: "a brand new passphrase",
    });
    expect(res.changed).toBe(true);
    const user = { id: userId, pulse_id: pulseId };
    expect(await events(userId)).toEqual([
      {
        type: "user.updated",
        application: CLIENT_ID,
        data: { user: { ...user, changed: ["datas.birthday", "datas.name", "ids.email"] } },
      },
      { type: "user.password_changed", application: CLIENT_ID, data: { user } },
    ]);
    const after = await row(userId);
    expect(after.version).toBe(before.version + 1);
    expect(after.password_hash).not.toBe(before.password_hash);
    expect(after.datas).toMatchObject({ birthday: "1990-05-17", name: "Eva" });
    // The answer is what a read gives now: new data, the pending email, the new version and time.
    expect(res.user).toEqual((await h.users.getUser({ userId })).user);
    expect(res.user?.ids.email?.pending?.value).toBe(newEmail);
  });

  it("a password alone is user.password_changed alone; a patch that changes nothing writes nothing", async () => {
    const { userId, pulseId } = await confirmedUser();
    expect((await patch(userId, { newPassword: "a brand new passphrase" })).changed).toBe(true);
    expect(await events(userId)).toEqual([
      { type: "user.password_changed", application: CLIENT_ID, data: { user: { id: userId, pulse_id: pulseId } } },
    ]);
    const before = await row(userId);
    const same = await patch(userId, { datas: { name: data("Ana") } }, "a brand new passphrase");
    expect(same.changed).toBe(false);
    expect(await events(userId)).toHaveLength(1);
    expect((await row(userId)).version).toBe(before.version);
  });
});
