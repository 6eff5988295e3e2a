import { create } from "@bufbuild/protobuf";
import { SessionSchema, type User } from "@gatehouse/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, caller, failure, startUsers, uniqueEmail, userObject, type Harness } from "../../test/harness.ts";
import { recordingLogins } from "./login-record.ts";

// Every session the users service opens goes through recordingLogins: a
// locked account gets none (a login that passed its password before the lock
// and finishes its MFA step after it), and the last login is recorded.
describe.each(backends)("opening sessions on %s", (_name, open) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startUsers(open);
  });
  afterAll(async () => {
    await h.close();
  });

  const newUser = async () => {
    const object = userObject(uniqueEmail(), { datas: { surname: { objectType: "data", value: "Pérez" } } });
    return (await h.users.registerUser({ caller: caller("open"), object })).user!;
  };
  const lastLogin = async (id: string) =>
    (await h.db.query<{ last_login_at: Date | null }>("SELECT last_login_at FROM users.users WHERE id = $1", [id])).rows[0]!.last_login_at;

  it("records the last login and opens the session", async () => {
    const user = await newUser();
    expect(await lastLogin(user.id)).toBeNull();
    const opened: string[] = [];
    const openSession = recordingLogins(h.db, async (u: User) => (opened.push(u.id), create(SessionSchema, { accessToken: "t" })), undefined);
    expect((await openSession(user, undefined)).accessToken).toBe("t");
    expect(opened).toEqual([user.id]);
    expect(await lastLogin(user.id)).not.toBeNull();
  });

  it("refuses a locked account before opening anything", async () => {
    const user = await newUser();
    await h.db.query("UPDATE users.users SET locked_at = now() WHERE id = $1", [user.id]);
    let opened = 0;
    const openSession = recordingLogins(h.db, async () => (opened++, create(SessionSchema, {})), undefined);
    expect((await failure(openSession(user, undefined))).reason).toBe("ACCOUNT_LOCKED");
    expect(opened).toBe(0);
  });

  it("a lock that lands while the session opens ends the user's sessions and refuses", async () => {
    const user = await newUser();
    const ended: string[] = [];
    const sessions = { list: async () => [], endAll: async (id: string) => (ended.push(id), 1) };
    const openSession = recordingLogins(
      h.db,
      async () => {
        await h.db.query("UPDATE users.users SET locked_at = now() WHERE id = $1", [user.id]);
        return create(SessionSchema, {});
      },
      sessions,
    );
    expect((await failure(openSession(user, undefined))).reason).toBe("ACCOUNT_LOCKED");
    expect(ended).toEqual([user.id]);
  });
});
