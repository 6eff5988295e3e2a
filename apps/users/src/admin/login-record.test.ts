import { create } from "@bufbuild/protobuf";
import { AuthorizationCodeSchema, AuthorizationRequestSchema, SessionSchema } from "@gatehouse/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, caller, failure, startUsers, uniqueEmail, userObject, type Harness } from "../../test/harness.ts";
import type { LoginGrants } from "../ports.ts";
import { recordingLogins } from "./login-record.ts";
import { accountStore } from "./store.ts";

/** Grants whose session opening is `open` (codes are not issued here). */
const grantsOpening = (
  open: (userId: string) => Promise<ReturnType<typeof create<typeof SessionSchema>>>,
): LoginGrants => ({
  openSession: (userId) => open(userId),
  issueCode: async () => create(AuthorizationCodeSchema, { code: "c" }),
});

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
    const user = (await h.users.registerUser({ caller: caller("open"), object })).user!;
    // The registration signed in (a grant of the harness's fake auth service): start from no login.
    await h.db.query("UPDATE users.users SET last_login_at = NULL WHERE id = $1", [user.id]);
    return user;
  };
  const lastLogin = async (id: string) =>
    (await h.db.query<{ last_login_at: Date | null }>("SELECT last_login_at FROM users.users WHERE id = $1", [id]))
      .rows[0]!.last_login_at;

  it("records the last login and opens the session", async () => {
    const user = await newUser();
    expect(await lastLogin(user.id)).toBeNull();
    const opened: string[] = [];
    const grants = recordingLogins(
      accountStore(h.db),
      grantsOpening(async (id) => (opened.push(id), create(SessionSchema, { accessToken: "t" }))),
      undefined,
    );
    expect((await grants.openSession(user.id, "shop")).accessToken).toBe("t");
    expect(opened).toEqual([user.id]);
    expect(await lastLogin(user.id)).not.toBeNull();
  });

  it("refuses a locked account before opening anything", async () => {
    const user = await newUser();
    await h.db.query("UPDATE users.users SET locked_at = now() WHERE id = $1", [user.id]);
    let opened = 0;
    const grants = recordingLogins(
      accountStore(h.db),
      grantsOpening(async () => (opened++, create(SessionSchema, {}))),
      undefined,
    );
    expect((await failure(grants.openSession(user.id, "shop"))).reason).toBe("ACCOUNT_LOCKED");
    expect(opened).toBe(0);
  });

  it("a lock that lands while the session opens ends the user's sessions and refuses", async () => {
    const user = await newUser();
    const ended: string[] = [];
    const sessions = { list: async () => [], endAll: async (id: string) => (ended.push(id), 1) };
    const grants = recordingLogins(
      accountStore(h.db),
      grantsOpening(async () => {
        await h.db.query("UPDATE users.users SET locked_at = now() WHERE id = $1", [user.id]);
        return create(SessionSchema, {});
      }),
      sessions,
    );
    expect((await failure(grants.openSession(user.id, "shop"))).reason).toBe("ACCOUNT_LOCKED");
    expect(ended).toEqual([user.id]);
  });

  it("a hosted login's code: refused for a locked account, never handed out when the lock lands meanwhile", async () => {
    const user = await newUser();
    const request = create(AuthorizationRequestSchema, {
      clientId: "shop",
      redirectUri: "https://shop.example.com/cb",
    });
    let issued = 0;
    const issuing = (lockMeanwhile: boolean): LoginGrants => ({
      openSession: () => Promise.reject(new Error("no session here")),
      async issueCode() {
        issued++;
        if (lockMeanwhile) await h.db.query("UPDATE users.users SET locked_at = now() WHERE id = $1", [user.id]);
        return create(AuthorizationCodeSchema, { code: "c" });
      },
    });
    expect(
      (await recordingLogins(accountStore(h.db), issuing(false), undefined).issueCode(request, user.id, new Date()))
        .code,
    ).toBe("c");
    expect(await lastLogin(user.id)).not.toBeNull();
    expect(
      (
        await failure(
          recordingLogins(accountStore(h.db), issuing(true), undefined).issueCode(request, user.id, new Date()),
        )
      ).reason,
    ).toBe("ACCOUNT_LOCKED");
    expect(
      (
        await failure(
          recordingLogins(accountStore(h.db), issuing(false), undefined).issueCode(request, user.id, new Date()),
        )
      ).reason,
    ).toBe("ACCOUNT_LOCKED");
    expect(issued).toBe(2);
  });
});
