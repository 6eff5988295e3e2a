import { pbkdf2Sync, randomBytes } from "node:crypto";
import { expect } from "vitest";
import { loginUser, outboxLinkToken, registerUser, tokenRequest, type TestApp } from "./http-users.ts";
import { OPERATOR } from "./stack-helpers.ts";

// The admin API over real HTTP against start:services: each resource is
// served by its own process (registry, users; sessions in auth).

const PASSWORD = "correct horse battery";

async function call(gw: string, token: string, method: string, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${gw}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: res.status === 204 ? undefined : await res.json() };
}

/**
 * Lock a user (login 403 account_locked; with shared state its session ends
 * at once), unlock, rotate the application's password (with shared state the
 * old one stops everywhere), and read both services' entries in the merged
 * audit log.
 */
export async function expectAdminJourney(
  gw: string,
  dataDir: string,
  app: TestApp,
  opts: { sharedState: boolean },
): Promise<void> {
  const op = await tokenRequest(gw, OPERATOR.id, OPERATOR.secret, { grant_type: "client_credentials", scope: "admin" });
  const token = ((await op.json()) as { access_token: string }).access_token;
  const email = `admin.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const user = (await registerUser(gw, app, email, PASSWORD)).body.content.user;
  expect(
    (
      await fetch(`${gw}/activityid/v1/user/confirm?token=${await outboxLinkToken(dataDir, email)}`, {
        redirect: "manual",
      })
    ).status,
  ).toBe(302);
  const session = (await loginUser(gw, app, email, PASSWORD)).body.content.session_info;

  const found = await call(gw, token, "GET", `/admin/v1/users?q=${encodeURIComponent(email)}`);
  expect(found.body.content.items.map((u: { id: number }) => u.id)).toEqual([user.id]);
  const locked = await call(gw, token, "POST", `/admin/v1/users/${user.id}/lock`);
  expect([locked.status, locked.body.content.user.status]).toEqual([200, "locked"]);
  expect((await loginUser(gw, app, email, PASSWORD)).body.errors.code).toBe("account_locked");
  if (opts.sharedState) {
    const info = await fetch(`${gw}/oauth2/userinfo`, { headers: { authorization: `Bearer ${session.access_token}` } });
    expect(info.status).toBe(401);
  }
  expect((await call(gw, token, "POST", `/admin/v1/users/${user.id}/unlock`)).body.content.user.status).toBe("active");

  const rotated = await call(gw, token, "POST", `/admin/v1/apps/${app.id}/password/rotate`);
  expect(rotated.status).toBe(200);
  const password = rotated.body.content.password as string;
  expect((await tokenRequest(gw, app.id, password, { grant_type: "client_credentials" })).status).toBe(200);
  if (opts.sharedState) {
    // The auth process hears the registry's notice over Redis: as soon as it arrives.
    let status = 200;
    for (let i = 0; i < 20 && status === 200; i++) {
      status = (await tokenRequest(gw, app.id, app.password, { grant_type: "client_credentials" })).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
  }
  app.password = password;

  const entries = (await call(gw, token, "GET", "/admin/v1/audit?limit=3")).body.content.items as {
    id: string;
    action: string;
  }[];
  expect(entries.map((e) => e.action)).toEqual(["client_secret.rotate", "user.unlock", "user.lock"]);
  expect(entries.map((e) => e.id.split("-")[0])).toEqual(["registry", "users", "users"]);

  // A bulk import over HTTP: the gateway spools the body and feeds the users process batch by batch.
  const imported = `imported.${Date.now()}@example.com`;
  const salt = randomBytes(16);
  const b64 = (b: Buffer) => b.toString("base64").replace(/=+$/, "");
  const hash = `$pbkdf2-sha512$i=1000$${b64(salt)}$${b64(pbkdf2Sync(PASSWORD, salt, 1000, 64, "sha512"))}`;
  const line = {
    ids: { email: { objectType: "user_id", value: imported } },
    datas: { name: { objectType: "data", value: "Ana" } },
    confirmed: ["email"],
    password: hash,
  };
  const started = await fetch(`${gw}/admin/v1/users/import?entrypoint=${app.entrypoint}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
    body: `${JSON.stringify(line)}\n{broken\n`,
  });
  expect(started.status).toBe(202);
  const jobId = ((await started.json()) as { content: { job: { id: string } } }).content.job.id;
  let job: { status: string; imported: number; failed: unknown[] } | undefined;
  for (let i = 0; i < 100 && job?.status !== "done"; i++) {
    if (i) await new Promise((r) => setTimeout(r, 100));
    job = (await call(gw, token, "GET", `/admin/v1/users/import/${jobId}`)).body.content.job;
  }
  expect(job).toMatchObject({ status: "done", imported: 1, failed: [{ line: 2, code: "invalid_json", field: "" }] });
  expect((await loginUser(gw, app, imported, PASSWORD)).status).toBe(200);
}
