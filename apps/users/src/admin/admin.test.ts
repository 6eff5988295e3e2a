import { create, toJson } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { AccountStatus, ExportUserDataResponseSchema, SessionSchema, type User } from "@gatehouse/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_ADDRESS,
  backends,
  caller,
  failure,
  loggedIn,
  startUsers,
  uniqueEmail,
  userObject,
  type AdminClients,
  type Harness,
} from "../../test/harness.ts";
import type { LoginGrants, UserSessions } from "../ports.ts";

const PASSWORD = "correct horse battery";

/** The auth service's part: sessions per user in memory (the real one is tested in auth and end to end). */
function memorySessions() {
  const live = new Map<string, { clientId: string; created: Date }[]>();
  const sessions: UserSessions & { ended: string[] } = {
    ended: [],
    async list(userId) {
      return (live.get(userId) ?? []).map((s) => ({
        ...s,
        refreshed: s.created,
        expires: new Date(Date.now() + 86_400_000),
      }));
    },
    async endAll(userId) {
      sessions.ended.push(userId);
      const n = live.get(userId)?.length ?? 0;
      live.delete(userId);
      return n;
    },
  };
  const grants: LoginGrants = {
    async openSession(userId) {
      live.set(userId, [...(live.get(userId) ?? []), { clientId: "shop", created: new Date() }]);
      return create(SessionSchema, { accessToken: `at-${userId}`, connectState: "connected" });
    },
    issueCode: () => Promise.reject(new Error("no hosted login in these tests")),
  };
  return { sessions, grants };
}

describe.each(backends)("UsersAdminService on %s", (_name, open) => {
  let h: Harness;
  let c: AdminClients;
  let fake: ReturnType<typeof memorySessions>;
  beforeAll(async () => {
    h = await startUsers(open);
    fake = memorySessions();
    c = await h.serveAdmin({ sessions: fake.sessions, grants: fake.grants });
  });
  afterAll(async () => {
    await h.close();
  });

  async function openUser(email = uniqueEmail()) {
    const object = userObject(email, { datas: { surname: { objectType: "data", value: "Pérez" } } });
    return { email, user: (await c.users.registerUser({ caller: caller("open"), object })).user! };
  }
  const login = (email: string, password = PASSWORD) => c.users.loginUser({ caller: caller("open"), email, password });
  const auditOf = async (target: string) =>
    (
      await h.db.query<{ actor: string; action: string; address: string; details: Record<string, unknown> }>(
        "SELECT actor, action, address, details FROM users.audit_log WHERE target = $1 ORDER BY id",
        [target],
      )
    ).rows;

  it("searches by exact value or prefix of email, phone, screen name, object id and pulse id, in pages", async () => {
    const tag = `s${Date.now().toString(36)}`;
    const a = await openUser(`${tag}-ana@example.com`);
    const b = await openUser(`${tag}-bea@example.com`);
    const web = await c.users.registerUser({
      caller: caller("web"),
      object: userObject(`${tag}-carla@example.com`, {
        ids: {
          email: { objectType: "user_id", value: `${tag}-carla@example.com` },
          phone_number: { objectType: "user_id", value: "+34 611 22 33 44" },
        },
      }),
    });
    const ids = (r: { users: { user?: User }[] }) => r.users.map((u) => u.user!.id);
    expect(ids(await c.reader.searchUserAccounts({ query: tag.toUpperCase() }))).toEqual(
      [a.user.id, b.user.id, web.user!.id].sort(),
    );
    expect(ids(await c.reader.searchUserAccounts({ query: `${tag}-ana@example.com` }))).toEqual([a.user.id]);
    expect(ids(await c.reader.searchUserAccounts({ query: "+34 611 22" }))).toContain(web.user!.id);
    expect(ids(await c.reader.searchUserAccounts({ query: " 34611223" }))).toContain(web.user!.id);
    expect(ids(await c.reader.searchUserAccounts({ query: a.user.id }))).toEqual([a.user.id]);
    expect(ids(await c.reader.searchUserAccounts({ query: b.user.pulseId.slice(0, 12) }))).toEqual([b.user.id]);
    expect(ids(await c.reader.searchUserAccounts({ query: "%" }))).toEqual([]);
    const first = await c.reader.searchUserAccounts({ query: tag, pageSize: 2 });
    const second = await c.reader.searchUserAccounts({ query: tag, pageSize: 2, pageToken: first.nextPageToken });
    expect([...ids(first), ...ids(second)]).toEqual([a.user.id, b.user.id, web.user!.id].sort());
    expect(second.nextPageToken).toBe("");
    expect(first.users[0]!.status).toBe(AccountStatus.ACTIVE);
    expect(first.users[0]!.sessionCount).toBeUndefined();
    expect((await c.reader.searchUserAccounts({})).users.length).toBeGreaterThanOrEqual(3);
  });

  it("reads an account by object id or pulse id: status, last login, live sessions, MFA", async () => {
    const { email, user } = await openUser();
    const before = await c.reader.getUserAccount({ userId: user.id });
    expect(before.account).toMatchObject({ status: AccountStatus.ACTIVE, mfaEnabled: false, sessionCount: 1 });
    await login(email);
    const after = await c.reader.getUserAccount({ userId: user.pulseId });
    expect(after.account?.user?.id).toBe(user.id);
    expect(after.account?.sessionCount).toBe(2);
    expect(Number(after.account?.lastLoginTime?.seconds)).toBeGreaterThan(Date.now() / 1000 - 60);
    expect((await failure(c.reader.getUserAccount({ userId: "1234567890123456" }))).reason).toBe("USER_NOT_FOUND");
  });

  it("lock: the right password answers ACCOUNT_LOCKED (a wrong one still INVALID_CREDENTIALS), every session ends; unlock", async () => {
    const { email, user } = await openUser();
    await login(email);
    const locked = await c.admin.lockUserAccount({ userId: user.id });
    expect(locked.account).toMatchObject({ status: AccountStatus.LOCKED, sessionCount: 0 });
    expect(fake.sessions.ended).toContain(user.id);
    const refused = await failure(login(email));
    expect([refused.code, refused.reason]).toEqual([Code.PermissionDenied, "ACCOUNT_LOCKED"]);
    expect((await failure(login(email, "wrong password"))).reason).toBe("INVALID_CREDENTIALS");
    expect((await c.admin.lockUserAccount({ userId: user.id })).account?.status).toBe(AccountStatus.LOCKED);
    const unlocked = await c.admin.unlockUserAccount({ userId: user.id });
    expect(unlocked.account?.status).toBe(AccountStatus.ACTIVE);
    expect(loggedIn(await login(email)).session?.accessToken).toBe(`at-${user.id}`);
    expect(await auditOf(user.id)).toEqual([
      { actor: "client:ops", action: "user.lock", address: ADMIN_ADDRESS, details: { alreadyLocked: false } },
      { actor: "client:ops", action: "user.lock", address: ADMIN_ADDRESS, details: { alreadyLocked: true } },
      { actor: "client:ops", action: "user.unlock", address: ADMIN_ADDRESS, details: { wasLocked: true } },
    ]);
  });

  it("logs a user out everywhere and records how many sessions ended", async () => {
    const { email, user } = await openUser();
    await login(email);
    const res = await c.admin.endUserSessions({ userId: user.id });
    expect(res.revokedCount).toBe(2);
    expect(res.account?.sessionCount).toBe(0);
    expect((await auditOf(user.id)).map((r) => [r.action, r.details])).toEqual([["user.logout", { sessionsEnded: 2 }]]);
  });

  it("exports everything stored about the user without secrets or hashes, and audits the export", async () => {
    const { email, user } = await openUser();
    await login(email);
    const res = await c.reader.exportUserData({ userId: user.id });
    expect(res.account?.user?.ids.email?.value).toBe(email);
    const records = res.records as Record<string, any>;
    expect(records.registration).toEqual({ clientId: "100000000001_shop", entrypointId: "100000000001_shop_open" });
    expect(records.mfa).toMatchObject({ totp: false, recoveryCodes: { total: 0, used: 0 } });
    expect(records.sessions).toHaveLength(2);
    expect(records.account.lastLogin).toEqual(expect.any(String));
    const again = await c.reader.exportUserData({ userId: user.id });
    expect((again.records as Record<string, any>).audit.map((e: { action: string }) => e.action)).toEqual([
      "user.export",
    ]);
    const json = JSON.stringify(toJson(ExportUserDataResponseSchema, res));
    const { rows } = await h.db.query<{ password_hash: string }>(
      "SELECT password_hash FROM users.users WHERE id = $1",
      [user.id],
    );
    expect(json).not.toContain(rows[0]!.password_hash);
    expect(json).not.toMatch(/argon2|code_hash|link_token/);
  });

  it("erases a user: identifiers free at once, 404 afterwards, sessions ended; the audit keeps ids and a digest only", async () => {
    const { email, user } = await openUser();
    // A sign-in code and an activation link hold the identifier value they were sent to.
    await h.db.query(
      `INSERT INTO users.access_codes (id, user_id, key, value, code_hash, expires_at) VALUES ($1, $2, 'email', $3, 'x', now())`,
      [`erase-${user.id}`, user.id, email],
    );
    await h.db.query(
      `INSERT INTO users.activations (id, user_id, key, value, token_hash, client_id, entrypoint_id, expires_at)
       VALUES ($1, $2, 'email', $3, $1, 'c', 'e', now())`,
      [`erase-${user.id}`, user.id, email],
    );
    await c.admin.eraseUser({ userId: user.id });
    expect(fake.sessions.ended).toContain(user.id);
    expect((await failure(c.reader.getUserAccount({ userId: user.id }))).reason).toBe("USER_NOT_FOUND");
    expect((await failure(login(email))).reason).toBe("INVALID_CREDENTIALS");
    const again = await openUser(email);
    expect(again.user.id).not.toBe(user.id);
    const { rows } = await h.db.query<Record<string, unknown>>("SELECT * FROM users.users WHERE id = $1", [user.id]);
    expect(rows[0]).toMatchObject({
      password_hash: null,
      datas: {},
      addresses: {},
      assertions: {},
      registered_client_id: null,
    });
    expect(rows[0]!.deleted_at).not.toBeNull();
    const left = await h.db.query(
      `SELECT 1 FROM users.identifiers WHERE user_id = $1 UNION ALL SELECT 1 FROM users.assertion_acceptances WHERE user_id = $1
       UNION ALL SELECT 1 FROM users.access_codes WHERE user_id = $1 UNION ALL SELECT 1 FROM users.activations WHERE user_id = $1`,
      [user.id],
    );
    expect(left.rows).toEqual([]);
    const [entry] = await auditOf(user.id);
    expect(entry).toMatchObject({
      action: "user.delete",
      details: { pulseId: user.pulseId, erased: { identifiers: ["email"], datas: 1 }, sessionsEnded: 1 },
    });
    expect(entry!.details.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(entry)).not.toContain(email);
    expect((await failure(c.admin.eraseUser({ userId: user.id }))).reason).toBe("USER_NOT_FOUND");
  });

  it("lists its audit log with filters; the database refuses to change it; scopes hold", async () => {
    const { user } = await openUser();
    await c.admin.lockUserAccount({ userId: user.id });
    const page = await c.reader.listUsersAuditEntries({
      filter: { target: user.id, actor: "ops", action: "user.lock" },
    });
    expect(page.entries.map((e) => [e.action, e.target, e.address])).toEqual([["user.lock", user.id, ADMIN_ADDRESS]]);
    await expect(h.db.query("UPDATE users.audit_log SET actor = 'x'")).rejects.toThrow(/append-only/);
    await expect(h.db.query("DELETE FROM users.audit_log")).rejects.toThrow(/append-only/);
    expect((await failure(c.reader.lockUserAccount({ userId: user.id }))).reason).toBe("INSUFFICIENT_SCOPE");
    expect((await failure(c.internal.getUserAccount({ userId: user.id }))).reason).toBe("INSUFFICIENT_SCOPE");
    expect((await failure(c.reader.searchUserAccounts({ pageSize: 500 }))).violations).toMatchObject([
      { field: "limit" },
    ]);
  });
});
