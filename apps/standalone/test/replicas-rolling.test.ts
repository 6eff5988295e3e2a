import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppWithToken, expectUserJourney, loginUser, tokenRequest, type TestApp } from "./http-users.ts";
import { authorizePath, pkce, validAuthorize } from "./oauth-flow.ts";
import { loadUser, steadyLoad, undelivered, type LoadUser } from "./replica-load.ts";
import { startReplicas, type ReplicaTopology } from "./replica-topology.ts";
import { OPERATOR, validApplication } from "./stack-helpers.ts";

// Contract section 16 as an operator runs it: npm run start:replicas (two
// replicas of every service behind haproxy, TCP, no retries, on PostgreSQL +
// Redis). What one replica changes the other honours at once, and a rolling
// restart of every replica under a steady load loses no request.
describe("two replicas of every service behind haproxy", () => {
  let t: ReplicaTopology;
  let app: TestApp;
  let op: string;
  let gw1: string;
  let gw2: string;
  const delays: Record<string, number> = {};

  beforeAll(async () => {
    t = await startReplicas();
    app = await createAppWithToken(t.gw, "load");
    const res = await tokenRequest(t.gw, OPERATOR.id, OPERATOR.secret, {
      grant_type: "client_credentials",
      scope: "apps:write apps:read admin",
    });
    op = ((await res.json()) as { access_token: string }).access_token;
    [gw1, gw2] = [await t.url("gateway", 1), await t.url("gateway", 2)];
  }, 180_000);
  afterAll(async () => {
    console.log("cross-replica delays (ms):", JSON.stringify(delays));
    await t?.close();
  });

  const admin = (gw: string, method: string, path: string, body?: unknown) =>
    fetch(`${gw}${path}`, {
      method,
      headers: { authorization: `Bearer ${op}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  /** Polls until `ok` holds, for at most 1 s (contract: at once); records how long it took. */
  async function within1s(name: string, probe: () => Promise<boolean>) {
    const t0 = Date.now();
    while (!(await probe())) {
      if (Date.now() - t0 > 1000) throw new Error(`${name}: not seen on the other replica within 1 s`);
      await new Promise((r) => setTimeout(r, 20));
    }
    delays[name] = Date.now() - t0;
  }
  /** A second application (with `edit`) and a confirmed user of it, logged in on gateway 2. */
  async function appWithUser(key: string, edit: (body: Record<string, any>) => void = () => undefined) {
    const body = { ...validApplication(), key };
    edit(body);
    const created = ((await (await admin(t.gw, "POST", "/v2/apps", body)).json()) as { content: any }).content;
    const token = await tokenRequest(t.gw, created.id, created.password, { grant_type: "client_credentials" });
    const a: TestApp = {
      id: created.id,
      password: created.password,
      entrypoint: created.entrypoints[0].id,
      token: ((await token.json()) as { access_token: string }).access_token,
    };
    return { a, u: await loadUser(t.gw, t.dataDir, a) };
  }

  it("the API end to end through the balancer", async () => {
    await expectUserJourney(t.gw, t.dataDir, app);
  });

  it("an assertion published on one gateway: the other's registration page and every login demand it within 1 s", async () => {
    const typology = `t${Date.now().toString(36)}`;
    expect(
      (await admin(gw1, "POST", "/admin/v1/catalogs/typologies", { key: typology, displayName: "T" })).status,
    ).toBe(201);
    const { a, u } = await appWithUser(`a${typology}`, (body) => {
      const ref = { objectType: "typology", id: typology };
      body.entrypoints[0].typology = { register: ref, work: ref };
    });
    const page = async () => {
      const params = validAuthorize(a, pkce().challenge, { entrypoint: a.entrypoint, prompt: "create" });
      return (await fetch(`${gw2}${authorizePath(params)}`)).text();
    };
    expect(await page()).not.toContain(`assertion.tos-${typology}`); // cached on gateway 2 from here
    expect((await loginUser(gw2, a, u.email, u.password)).status).toBe(200); // and on a users replica
    const published = await admin(gw1, "POST", "/admin/v1/assertions", {
      key: `tos-${typology}`,
      displayName: { en: "Terms" },
      type: "terms",
      typology,
      mandatory: true,
      version: "1",
    });
    expect(published.status).toBe(201);
    await within1s("assertion: page", async () => (await page()).includes(`name="assertion.tos-${typology}"`));
    // Both users replicas (the balancer alternates): two logins in a row.
    await within1s("assertion: login", async () => {
      const s = [
        (await loginUser(gw2, a, u.email, u.password)).status,
        (await loginUser(gw2, a, u.email, u.password)).status,
      ];
      return s.every((x) => x === 451);
    });
  });

  it("an application changed, a secret rotated, a token revoked, an account locked on one gateway: the other honours it within 1 s", async () => {
    const { a, u } = await appWithUser(`x${Date.now().toString(36)}`);
    const token = (gw: string, secret: string) => tokenRequest(gw, a.id, secret, { grant_type: "client_credentials" });
    for (let i = 0; i < 4; i++) expect((await token(gw2, a.password)).status).toBe(200); // cached on both auth replicas

    expect((await admin(gw1, "PATCH", `/admin/v1/apps/${a.id}`, { mfa: "required" })).status).toBe(200);
    await within1s("application: mfa", async () => (await loginUser(gw2, a, u.email, u.password)).status === 428);

    const rotated = await admin(gw1, "POST", `/admin/v1/apps/${a.id}/password/rotate`);
    const secret = ((await rotated.json()) as { content: { password: string } }).content.password;
    await within1s("secret rotated", async () => {
      const s = [(await token(gw2, a.password)).status, (await token(gw2, a.password)).status];
      return s.every((x) => x === 401);
    });
    expect((await token(gw2, secret)).status).toBe(200);

    const access = ((await (await token(gw1, secret)).json()) as { access_token: string }).access_token;
    const introspect = async (gw: string) =>
      (await (
        await fetch(`${gw}/oauth2/introspect`, {
          method: "POST",
          headers: {
            authorization: `Basic ${Buffer.from(`${a.id}:${secret}`).toString("base64")}`,
            "content-type": "application/x-www-form-urlencoded",
          },
          body: new URLSearchParams({ token: access }).toString(),
        })
      ).json()) as { active: boolean };
    expect((await introspect(gw2)).active).toBe(true);
    const revoked = await fetch(`${gw1}/oauth2/revoke`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${a.id}:${secret}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ token: access }).toString(),
    });
    expect(revoked.status).toBe(200);
    await within1s("revocation", async () => (await introspect(gw2)).active === false);

    expect((await admin(gw1, "PATCH", `/admin/v1/apps/${a.id}`, { mfa: "off" })).status).toBe(200);
    expect((await admin(gw1, "POST", `/admin/v1/users/${u.id}/lock`)).status).toBe(200);
    await within1s("lock", async () => {
      const res = await loginUser(gw2, a, u.email, u.password);
      return res.status === 403 && res.body.errors.code === "account_locked";
    });
  });

  it("a rolling restart of every replica under a steady load: no request fails, every delivery goes out", async () => {
    const users: LoadUser[] = [];
    for (let i = 0; i < 3; i++) users.push(await loadUser(t.gw, t.dataDir, app));
    let stopped = false;
    const load = steadyLoad(t.gw, app, users, op, () => stopped);
    await new Promise((r) => setTimeout(r, 1000));
    const order = ["registry", "auth", "users", "confirmation-worker", "gateway"];
    const exits: Record<string, number> = {};
    for (const service of order)
      for (const index of [1, 2]) exits[`${service}-${index}`] = (await t.restart(service, index)).exitedInMs;
    await new Promise((r) => setTimeout(r, 1000));
    stopped = true;
    const tally = await load;
    console.log(
      "rolling restart:",
      JSON.stringify({ sent: tally.sent, byOp: tally.byOp, failed: tally.failures.length, exits }),
    );
    expect(tally.failures).toEqual([]);
    expect(tally.sent).toBeGreaterThan(200);
    expect(await undelivered(t.dataDir, tally.registered)).toEqual([]);
    // Ten replicas stopped and started one after the other: on a busy 2-core CI machine each start takes seconds.
  }, 300_000);
});
