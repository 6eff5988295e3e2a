import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deviceRig, personDecides, personPage, poll, post, type DeviceRig } from "./device-flow.ts";
import { shot } from "./hosted-flows.ts";
import { createOAuthApp } from "./oauth-flow.ts";
import { loggedUser, type FlowApp } from "./user-flows.ts";

// RFC 8628 end to end, on both stores: a REAL device client (openid-client's
// device-flow functions) against the running server, the person's side in
// Chromium without JavaScript.

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

describe.each([
  ["PostgreSQL + Redis", false],
  ["embedded (PGlite + in-process)", true],
])("device authorization grant on %s", (name, embedded) => {
  let rig: DeviceRig;
  let app: FlowApp;
  let email: string;
  const shots = embedded ? undefined : "device";

  beforeAll(async () => {
    rig = await deviceRig(embedded);
    app = await createOAuthApp(rig.s);
    email = (await loggedUser(rig.s, app)).email;
  }, 120_000);
  afterAll(async () => rig?.close());

  /** openid-client's configuration for the entry point as a public client, or the application with its secret. */
  const discover = (confidential: boolean) =>
    confidential
      ? client.discovery(new URL(rig.base), app.id, app.password, client.ClientSecretPost(app.password), {
          execute: [client.allowInsecureRequests],
        })
      : client.discovery(new URL(rig.base), app.entrypoint, undefined, client.None(), {
          execute: [client.allowInsecureRequests],
        });

  it("discovery lists the endpoint and the grant", async () => {
    const config = await discover(false);
    const m = config.serverMetadata();
    expect(m.device_authorization_endpoint).toBe(`${rig.base}/oauth2/device_authorization`);
    expect(m.grant_types_supported).toContain(DEVICE_GRANT);
  });

  it("a TV signs in: the person approves in Chromium, the poll gets the tokens once, the session records the TV", async () => {
    const config = await discover(false);
    const d = await client.initiateDeviceAuthorization(config, { scope: "openid profile", source_id: "itv" });
    expect(d.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(d.verification_uri).toBe(`${rig.base}/device`);
    expect(d.verification_uri_complete).toBe(`${rig.base}/device?user_code=${d.user_code}`);
    expect([d.expires_in, d.interval]).toEqual([600, 5]);

    const polling = client.pollDeviceAuthorizationGrant(config, d);
    const page = await personPage(rig, "en");
    const heading = await personDecides(page, {
      lang: "en",
      url: d.verification_uri_complete!,
      email,
      decision: "approve",
      ...(shots ? { shots } : {}),
    });
    expect(heading).toBe("Your device is signed in");
    // Back to the callback: its code is spent, the page says to start again (never a second decision).
    await page.goBack();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("The sign-in did not finish");
    if (shots) await shot(page, `${shots}-expired-en`);
    const tokens = await polling;
    expect(tokens.access_token).toBeTruthy();
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.claims()?.aud).toBe(app.entrypoint);
    expect(tokens.scope).toBe("openid profile");

    // A second poll after the tokens were issued.
    expect(await poll(rig.base, app.entrypoint, d.device_code)).toMatchObject({
      status: 400,
      body: { error: "invalid_grant" },
    });
    // The refresh token rotates like any other.
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

    // The session carries its device kind (the user's data export lists it).
    const admin = await rig.s.operatorToken("admin");
    const sub = tokens.claims()!.sub;
    const exp = await fetch(`${rig.base}/admin/v1/users/${sub}/export`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const sessions = ((await exp.json()) as { content: { sessions: { sourceId?: string }[] } }).content.sessions;
    expect(sessions.some((x) => x.sourceId === "itv")).toBe(true);
    await page.context().close();
  }, 60_000);

  it("a console of a confidential application is denied (Spanish, the code typed in lower case without the dash)", async () => {
    const config = await discover(true);
    const d = await client.initiateDeviceAuthorization(config, { source_id: "game_console" });
    const polling = client.pollDeviceAuthorizationGrant(config, d).then(
      () => "tokens",
      (err: { error?: string }) => err.error,
    );
    const page = await personPage(rig, "es");
    // A wrong code first: the form again, with the error on the input.
    await page.goto(`${rig.base}/device`);
    await page.getByLabel("Código").fill("BBBB-CCCC");
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Continuar" }).click()]);
    expect(await page.getByRole("alert").textContent()).toContain("no es válido");
    if (shots) await shot(page, `${shots}-wrong-es`);
    const heading = await personDecides(page, {
      lang: "es",
      url: `${rig.base}/device`,
      typed: ` ${d.user_code.replace("-", "").toLowerCase()} `,
      email,
      decision: "deny",
      ...(shots ? { shots } : {}),
    });
    expect(heading).toBe("Inicio de sesión denegado");
    expect(await polling).toBe("access_denied");
    await page.context().close();
  }, 60_000);

  it("slow_down while undecided (the interval grows by 5 s); racing polls after approval (signed in with an emailed code) get tokens exactly once", async () => {
    const d = (await post(rig.base, "/oauth2/device_authorization", { client_id: app.entrypoint })).body;
    expect(d.user_code).toBeTruthy();
    expect(await poll(rig.base, app.entrypoint, d.device_code!)).toMatchObject({
      body: { error: "authorization_pending" },
    });
    const fast = await poll(rig.base, app.entrypoint, d.device_code!);
    expect(fast).toMatchObject({ status: 400, body: { error: "slow_down" } });
    expect(fast.body.error_description).toContain("10 s");

    const page = await personPage(rig, "en");
    // Another sign-in method of the entry point: an emailed one-time code.
    const heading = await personDecides(page, {
      lang: "en",
      url: d.verification_uri_complete!,
      email,
      decision: "approve",
      emailedCode: rig.s,
    });
    expect(heading).toBe("Your device is signed in");
    const answers = await Promise.all(Array.from({ length: 8 }, () => poll(rig.base, app.entrypoint, d.device_code!)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.body.error === "invalid_grant")).toHaveLength(7);
    await page.context().close();
  }, 60_000);
});
