import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { ensureConsoleBuilt } from "../src/console-build.ts";

// The console (apps/console's build, served by the gateway at /console) in
// headless Chromium. A test starts signed in the way the console keeps its
// session: an access token in sessionStorage under SESSION_KEY, written before
// the app loads. The token is an operator client's (client_credentials, scope
// admin) from the test stack: test set-up, no server-side shortcut.

/** The console's sessionStorage key (apps/console/src/auth/session.ts). */
export const SESSION_KEY = "gatehouse.console.session";
export const PENDING_KEY = "gatehouse.console.pending";

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Where screenshots go: CONSOLE_SCREENSHOTS, else a temporary directory. */
export const SHOTS = process.env.CONSOLE_SCREENSHOTS ?? join(tmpdir(), "gatehouse-console");

export async function launchConsoleBrowser(): Promise<Browser> {
  ensureConsoleBuilt({ info: () => undefined, warn: (facts: unknown, msg?: string) => console.warn(msg, facts) });
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: ARGS });
}

/** A browser context whose console tab starts signed in with `accessToken`. */
export async function signedInContext(
  browser: Browser,
  accessToken: string,
  opts: { locale?: string; width?: number } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1360, height: 900 },
    locale: opts.locale ?? "en-US",
    acceptDownloads: true,
  });
  await context.addInitScript(
    ([key, token]) => {
      // Once per tab: a sign-out in the test stays signed out.
      if (sessionStorage.getItem("test.seeded")) return;
      sessionStorage.setItem("test.seeded", "1");
      sessionStorage.setItem(
        key,
        JSON.stringify({ accessToken: token, expiresAt: Date.now() + 3_600_000, scope: "admin" }),
      );
    },
    [SESSION_KEY, accessToken] as const,
  );
  return context;
}

/** Collects what must never happen on a console page: CSP violations, script errors, failed requests. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of (4\d\d)/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  page.on("requestfailed", (r) => {
    // Leaving the page (the hosted login, a download) cancels what was in flight.
    if (!/ERR_ABORTED/.test(r.failure()?.errorText ?? ""))
      problems.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`);
  });
  return problems;
}

export async function shot(page: Page, name: string): Promise<void> {
  // The sidebar is sticky: at the top it is drawn where it belongs in a full-page picture.
  await page.evaluate("window.scrollTo(0, 0)");
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}
