import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, runEntry, stopChild, waitReady } from "./processes.ts";
import { seedEmbeddedDataDir, startTestStack, validApplication, type TestStack } from "./stack-helpers.ts";

// The embedded default: PGlite and in-process state, no configuration.
describe("embedded default (PGlite + in-process state)", () => {
  let s: TestStack;
  beforeAll(async () => {
    s = await startTestStack({ embedded: true });
  });
  afterAll(() => s.close());

  it("runs the main path: token, create application, app token, introspect, revoke", async () => {
    expect(s.stores.db.kind).toBe("pglite");
    expect(s.stores.kv.kind).toBe("memory");
    const token = await s.operatorToken();
    const created = await s.app.inject({
      method: "POST",
      url: "/v2/apps",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      payload: JSON.stringify(validApplication()),
    });
    expect(created.statusCode).toBe(201);
    const app = created.json().content;
    const appToken = await s.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: app.id,
        client_secret: app.password,
      }).toString(),
    });
    expect(appToken.statusCode).toBe(200);
    const t = appToken.json().access_token;
    const auth = { authorization: s.basic(app.id, app.password), "content-type": "application/x-www-form-urlencoded" };
    const intro = await s.app.inject({
      method: "POST",
      url: "/oauth2/introspect",
      headers: auth,
      payload: `token=${t}`,
    });
    expect(intro.json()).toMatchObject({ active: true, client_id: app.id, scope: "users:access" });
    expect(
      (await s.app.inject({ method: "POST", url: "/oauth2/revoke", headers: auth, payload: `token=${t}` })).statusCode,
    ).toBe(200);
    expect(
      (await s.app.inject({ method: "POST", url: "/oauth2/introspect", headers: auth, payload: `token=${t}` })).json(),
    ).toEqual({ active: false });
    // The operator may not create applications with the application's token.
    const forbidden = await s.app.inject({
      method: "POST",
      url: "/v2/apps",
      headers: { authorization: `Bearer ${appToken.json().access_token}`, "content-type": "application/json" },
      payload: JSON.stringify(validApplication()),
    });
    expect([401, 403]).toContain(forbidden.statusCode);
  });
});

describe("npm start with no configuration but a data dir and port", () => {
  it("starts on the embedded drivers, bootstraps by CLI, serves and stops cleanly", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "gh-npmstart-"));
    // initdb done beforehand (the CLI would spend most of this test on it): a
    // fresh DATA_DIR's initdb is what the README walkthrough and build.test.ts run.
    await seedEmbeddedDataDir(dataDir);
    const boot = await runEntry("cli", ["bootstrap-operator", "--client-id", "cli-op"], {
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
    });
    const code = await new Promise((r) => boot.once("exit", r));
    expect(code).toBe(0);
    const printed = JSON.parse(boot.output().trim().split("\n").pop()!);
    expect(printed).toMatchObject({ client_id: "cli-op", created: true });
    expect(Buffer.from(printed.client_secret, "base64url").length).toBeGreaterThanOrEqual(16);

    const port = await freePort();
    const child = await runEntry("main", [], {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
    });
    try {
      await waitReady(`http://127.0.0.1:${port}/readyz`, child);
      const res = await fetch(`http://127.0.0.1:${port}/oauth2/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`cli-op:${printed.client_secret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "grant_type=client_credentials",
      });
      expect(res.status).toBe(200);
    } finally {
      expect(await stopChild(child)).toBe(0);
    }
    // Two processes that each start the whole stack (~5 s of CPU each), on two cores shared with the rest of the suite.
  }, 120_000);
});
