import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit } from "./admin-flows.ts";
import { launchConsoleBrowser, shot, signedInContext, watchProblems } from "./console-page.ts";
import { listeningStack } from "./rp-helpers.ts";
import type { TestStack } from "./stack-helpers.ts";
import { createApp } from "./user-flows.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

// The console's webhook screens (contract section 14) in Chromium against a
// real stack and a receiver that verifies every delivery: create (the secret
// shown once), the delivery log with a retried attempt, a manual retry, edit,
// rotation, and the screens in Spanish.
describe("the console's webhooks (headless Chromium)", () => {
  let s: TestStack;
  let base: string;
  let browser: Browser;
  let r: Receiver;
  let failures = 1;

  beforeAll(async () => {
    ({ s, base } = await listeningStack({ WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_BASE_MS: "100" }));
    r = await startReceiver(() => (failures-- > 0 ? 503 : 200));
    browser = await launchConsoleBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await r?.close();
    await s?.close();
  });

  it("adds a webhook (secret shown once), shows its deliveries, retries one, edits it and rotates its secret", async () => {
    const token = await s.operatorToken("admin");
    const page = await (await signedInContext(browser, token)).newPage();
    const problems = watchProblems(page);
    await page.goto(`${base}/console/webhooks`);
    await page.getByText("No webhooks yet.").waitFor();
    await page.getByRole("button", { name: "+ Add webhook" }).click();
    await page.getByLabel("URL").fill(r.url);
    await page.getByLabel("Every event (*)").uncheck();
    await page.getByLabel("application.created").check();
    await page.getByLabel("Description").fill("CRM sync");
    await shot(page, "webhook-new");
    await page.getByRole("button", { name: "Save" }).click();
    const secret = (await page.getByTestId("secret-value").textContent())!;
    expect(secret).toMatch(/^whsec_/);
    r.secrets.push(secret);
    await shot(page, "webhook-created");

    const app = await createApp(s, "consolehook");
    await r.until((got) => got.some((g) => g.status === 200 && g.body.application === app.id), "the delivery");
    await page.getByRole("link", { name: "Open this webhook" }).click();
    await page.getByRole("heading", { name: "Deliveries" }).waitFor();
    for (let i = 0; i < 50 && !(await page.getByText("Delivered").count()); i++) {
      await page.getByRole("button", { name: "Refresh" }).click();
      await page.waitForTimeout(200);
    }
    const row = page.getByRole("row", { name: /application\.created/ });
    await expect(row.getByRole("cell").nth(2).textContent()).resolves.toBe("2");
    await shot(page, "webhook");

    const eventId = r.got[0]!.id;
    await row.getByRole("button", { name: `Retry ${eventId}` }).click();
    await page.getByText(`Event ${eventId} will be sent again now.`).waitFor();
    await r.until((got) => got.filter((g) => g.id === eventId).length === 3, "the manual retry");

    await page.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Description").fill("CRM sync (EU)");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("CRM sync (EU)").waitFor();

    await page.getByRole("button", { name: "Rotate secret" }).click();
    await page
      .getByRole("dialog", { name: "Rotate the signing secret?" })
      .getByRole("button", { name: "Rotate secret" })
      .click();
    await page.getByText("New signing secret").waitFor();
    const rotated = (await page.getByTestId("secret-value").textContent())!;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByText("Previous secret signs until").waitFor();
    await shot(page, "webhook-rotated");
    for (const g of r.got) expect(g.verifiedWith).toBe(0);
    const actions = (await audit(s, { actor: "client:test-operator" })).map((a) => a.action);
    for (const a of ["webhook.create", "webhook.retry_delivery", "webhook.update", "webhook.rotate_secret"])
      expect(actions).toContain(a);
    expect(problems).toEqual([]);

    const es = await (await signedInContext(browser, token, { locale: "es-ES" })).newPage();
    await es.goto(`${base}/console/webhooks`);
    await es.getByRole("heading", { name: "Destinos" }).waitFor();
    await shot(es, "webhooks-es");
    await es.getByRole("link", { name: r.url }).click();
    await es.getByRole("heading", { name: "Entregas" }).waitFor();
    await es.getByText("Entregado").first().waitFor();
    await shot(es, "webhook-es");
  }, 120_000);
});
