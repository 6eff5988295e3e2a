import { readFile } from "node:fs/promises";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchConsoleBrowser, shot, signedInContext, watchProblems } from "./console-page.ts";
import { familyHashes, userLine } from "./import-flows.ts";
import { listeningStack } from "./rp-helpers.ts";
import type { TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, type FlowApp } from "./user-flows.ts";

// The console's import screen and export control in Chromium over real HTTP:
// upload an NDJSON file, follow the job, read the lines not imported by
// number; download the export (with hashes). In English and Spanish.

describe("the console's user import and export (headless Chromium)", () => {
  let s: TestStack;
  let base: string;
  let app: FlowApp;
  let token: string;
  let browser: Browser;

  beforeAll(async () => {
    ({ s, base } = await listeningStack());
    app = await createApp(s, "importapp");
    token = await s.operatorToken("admin");
    browser = await launchConsoleBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("uploads a file, shows the progress and each line skipped or failed; downloads the export with hashes", async () => {
    const taken = await loggedUser(s, app, "console.taken@example.com");
    const hashes = await familyHashes();
    const file = [
      userLine("console.a@example.com", hashes.bcrypt2y!.password),
      userLine("console.taken@example.com", hashes.argon2id!.password),
      "{oops",
      userLine("console.b@example.com", "sha1:nope"),
    ].join("\n");
    const context = await signedInContext(browser, token);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${base}/console/users`);
    await page.getByRole("link", { name: "Import users" }).click();
    await page.getByLabel("Entry point id").fill(app.entrypoint);
    await page
      .getByLabel("NDJSON file")
      .setInputFiles({ name: "users.ndjson", mimeType: "application/x-ndjson", buffer: Buffer.from(file) });
    await shot(page, "users-import");
    await page.getByRole("button", { name: "Start import" }).click();
    await page.getByRole("heading", { name: "Import finished" }).waitFor();
    const rows = await page.getByRole("table", { name: "Lines not imported" }).getByRole("row").allInnerTexts();
    expect(rows.slice(1).map((r) => r.split("\t").map((c) => c.trim()))).toEqual([
      ["2", "Skipped · holder", "ids.email", "identifier_taken"],
      ["3", "Failed", "—", "invalid_json"],
      ["4", "Failed", "password", "unsupported_hash"],
    ]);
    expect(await page.getByRole("link", { name: "holder" }).getAttribute("href")).toBe(`/console/users/${taken.id}`);
    await shot(page, "users-import-done");

    await page.goto(`${base}/console/users`);
    await page.getByText("Export every user (NDJSON)").click();
    await page.getByLabel("Include password hashes").check();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download export" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("users.ndjson");
    const lines = (await readFile((await download.path())!, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.find((l) => l.ids.email.value === "console.a@example.com")?.password).toBe(hashes.bcrypt2y!.password);
    await shot(page, "users-export");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the import screen in Spanish", async () => {
    const context = await signedInContext(browser, token, { locale: "es-ES" });
    const page = await context.newPage();
    await page.goto(`${base}/console/users/import`);
    await page.getByRole("heading", { name: "Subir un fichero" }).waitFor();
    await shot(page, "users-import-es");
    await context.close();
  });
});
