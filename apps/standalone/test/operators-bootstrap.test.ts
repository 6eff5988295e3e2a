import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@gatehouse/config";
import { freshDatabase, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { OPERATOR_PASSWORD, signIn } from "./operator-flows.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, loginEnvelope, send } from "./user-flows.ts";

// BOOTSTRAP_OPERATOR_EMAIL + BOOTSTRAP_OPERATOR_PASSWORD and the console's
// client at start (contract section 6): replicas starting together create
// each once, a restart changes nothing (a new PUBLIC_URL moves the console's
// redirect URI), the embedded path too; wrong settings stop the start clearly.

const audit = async (s: TestStack, action: string) =>
  (
    await s.app.inject({
      method: "GET",
      url: `/admin/v1/audit?action=${action}`,
      headers: { authorization: `Bearer ${await s.operatorToken("admin")}` },
    })
  ).json().content.items as Record<string, unknown>[];
const usersNamed = async (s: TestStack, email: string) =>
  (
    await s.app.inject({
      method: "GET",
      url: `/admin/v1/users?q=${encodeURIComponent(email)}`,
      headers: { authorization: `Bearer ${await s.operatorToken("admin")}` },
    })
  ).json().content.items as unknown[];
async function consoleApp(s: TestStack) {
  const res = await s.app.inject({
    method: "GET",
    url: "/admin/v1/apps/gatehouse",
    headers: { authorization: `Bearer ${await s.operatorToken("admin")}` },
  });
  expect(res.statusCode).toBe(200);
  return res.json().content;
}

describe("operators and the console's client at start", () => {
  const stacks: TestStack[] = [];
  afterAll(async () => {
    for (const s of stacks) await s.close().catch(() => undefined);
  });

  it("three replicas starting together on PostgreSQL + Redis: one console application, one operator; a restart keeps them, a new PUBLIC_URL moves the redirect URI", async () => {
    const email = `root.${randomBytes(3).toString("hex")}@example.com`;
    const env = {
      DATA_DIR: await mkdtemp(join(tmpdir(), "gh-ops-")),
      DATABASE_URL: (await freshDatabase()).url,
      REDIS_URL: redisTestUrl(),
      REDIS_PREFIX: uniquePrefix(),
      SECRET_KEY: randomBytes(32).toString("base64url"),
      PUBLIC_URL: "http://one.gatehouse.test",
      BOOTSTRAP_OPERATOR_EMAIL: email,
      BOOTSTRAP_OPERATOR_PASSWORD: OPERATOR_PASSWORD,
    };
    const replicas = await Promise.all([0, 1, 2].map(() => startTestStack({ env })));
    stacks.push(...replicas);
    const [a] = replicas;
    expect(await usersNamed(a!, email)).toHaveLength(1);
    expect(await audit(a!, "operator.create")).toHaveLength(1);
    expect(await audit(a!, "console_application.create")).toHaveLength(1);
    expect(await consoleApp(a!)).toMatchObject({
      id: "gatehouse",
      displayName: "Gatehouse console",
      redirectUris: ["http://one.gatehouse.test/console/callback"],
      mfa: "required",
    });
    expect((await consoleApp(a!)).entrypoints.map((e: { id: string }) => e.id)).toEqual(["gatehouse-console"]);

    // The bootstrap password signs in; TOTP is set up at this first sign-in.
    const first = await signIn(a!, email);
    expect(first.after.statusCode).toBe(200);
    expect(first.after.body).toContain('name="totp_secret"');

    // MFA is always required of operators: at an application whose policy is off, the JSON login answers 428 to enrol.
    const shop = await createApp(a!, `shop${Date.now().toString(36)}`);
    const login = await send(
      a!,
      "POST",
      "/activityid/v1/user/access",
      shop.token,
      shop.entrypoint,
      loginEnvelope(shop, email, OPERATOR_PASSWORD),
    );
    expect(login.statusCode).toBe(428);
    expect(login.json().content.mfa).toMatchObject({ methods: ["totp"], enroll: true });

    for (const s of replicas) await s.close();
    stacks.length = 0;
    const moved = await startTestStack({ env: { ...env, PUBLIC_URL: "http://two.gatehouse.test" } });
    stacks.push(moved);
    expect(await usersNamed(moved, email)).toHaveLength(1);
    expect(await audit(moved, "operator.create")).toHaveLength(1);
    expect(await audit(moved, "console_application.create")).toHaveLength(1);
    expect(await audit(moved, "console_application.update")).toHaveLength(1);
    expect((await consoleApp(moved)).redirectUris).toEqual(["http://two.gatehouse.test/console/callback"]);
    const old = await moved.app.inject({
      method: "GET",
      url: `/oauth2/authorize?client_id=gatehouse-console&redirect_uri=${encodeURIComponent("http://one.gatehouse.test/console/callback")}&response_type=code&scope=openid%20admin&code_challenge=${"a".repeat(43)}&code_challenge_method=S256`,
    });
    expect(old.statusCode).toBe(400);
  }, 120_000);

  it("the embedded path (PGlite): created at the first start, left alone at the next", async () => {
    const email = `solo.${randomBytes(3).toString("hex")}@example.com`;
    const env = {
      DATA_DIR: await mkdtemp(join(tmpdir(), "gh-ops-embedded-")),
      SECRET_KEY: randomBytes(32).toString("base64url"),
      BOOTSTRAP_OPERATOR_EMAIL: email,
      BOOTSTRAP_OPERATOR_PASSWORD: OPERATOR_PASSWORD,
    };
    const first = await startTestStack({ embedded: true, env });
    const before = await audit(first, "operator.create");
    expect(before).toHaveLength(1);
    await first.close();
    const again = await startTestStack({
      embedded: true,
      env: { ...env, BOOTSTRAP_OPERATOR_PASSWORD: "another password 99" },
    });
    stacks.push(again);
    expect(await audit(again, "operator.create")).toEqual(before);
    expect(await usersNamed(again, email)).toHaveLength(1);
    // The operator's password is the first one: the bootstrap never overwrites it.
    expect((await signIn(again, email)).after.body).toContain('name="totp_secret"');
    expect((await signIn(again, email, "another password 99")).after.statusCode).toBe(401);
  }, 120_000);

  it("wrong settings stop the start with a clear error", async () => {
    expect(() => loadConfig({ BOOTSTRAP_OPERATOR_EMAIL: "a@example.com" })).toThrow(
      new ConfigError("BOOTSTRAP_OPERATOR_EMAIL and BOOTSTRAP_OPERATOR_PASSWORD go together"),
    );
    expect(() =>
      loadConfig({ BOOTSTRAP_OPERATOR_EMAIL: "a@example.com", BOOTSTRAP_OPERATOR_PASSWORD: "short" }),
    ).toThrow(/BOOTSTRAP_OPERATOR_PASSWORD must be 8 to 128 characters/);
    expect(() =>
      loadConfig({ BOOTSTRAP_OPERATOR_EMAIL: "not-an-email", BOOTSTRAP_OPERATOR_PASSWORD: OPERATOR_PASSWORD }),
    ).toThrow(/BOOTSTRAP_OPERATOR_EMAIL must be an email address/);

    // An email that a user who is not an operator holds.
    const db = {
      DATABASE_URL: (await freshDatabase()).url,
      REDIS_URL: redisTestUrl(),
      REDIS_PREFIX: uniquePrefix(),
      SECRET_KEY: randomBytes(32).toString("base64url"),
    };
    const s = await startTestStack({ env: db });
    stacks.push(s);
    const user = await loggedUser(s, await createApp(s, "plain"));
    const err = await startTestStack({
      env: { ...db, BOOTSTRAP_OPERATOR_EMAIL: user.email, BOOTSTRAP_OPERATOR_PASSWORD: OPERATOR_PASSWORD },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(
      `BOOTSTRAP_OPERATOR_EMAIL ${user.email}: this email belongs to a user who is not an operator`,
    );
  }, 120_000);
});
