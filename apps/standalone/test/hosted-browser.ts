import { createServer, type Server } from "node:http";
import { chromium, type Browser, type BrowserContext, type Page, type Response } from "playwright-core";
import { expect } from "vitest";
import { hostedApp, type HostedApp } from "./hosted-flows.ts";
import { authorizePath, pkce, validAuthorize } from "./oauth-flow.ts";
import { freePort } from "./processes.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { PASSWORD, send, SOURCE } from "./user-flows.ts";

// A stack listening on a port, the hosted-pages application, a callback
// server standing for the application's redirect URI, and headless Chromium:
// what a browser test of the hosted entry-point pages needs.

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface HostedFlow {
  page: Page;
  verifier: string;
  state: string;
}

export interface HostedBrowser {
  s: TestStack;
  app: HostedApp;
  /** A phone-sized page in a language at the authorization request of an entry point (by key). */
  open(lang: "en" | "es", ep: string, extra?: Record<string, string>, opts?: OpenOptions): Promise<HostedFlow>;
  /** The authorization request of an entry point again, in a page already open (a second sign-in in the same browser). */
  again(page: Page, ep: string, extra?: Record<string, string>): Promise<HostedFlow>;
  /** Submits with the button named `name`; the next page's response. */
  submit(page: Page, name: string): Promise<Response | null>;
  /** The page landed on the redirect URI with the request's state, and its code buys tokens. */
  landed(flow: HostedFlow): Promise<void>;
  /** A user the application registered (the API) through an entry point. */
  apiUser(ep: string, address: string, opts?: { datas?: Record<string, string>; terms?: boolean }): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** JavaScript on (the passkey pages); off by default: the pages work without it. */
  js?: boolean;
}

/**
 * `host`: the name the pages are served under (`localhost` for WebAuthn, which
 * refuses IP addresses as relying party ids); `embedded`: the embedded stores.
 */
export async function hostedBrowser(
  opts: { host?: "127.0.0.1" | "localhost"; embedded?: boolean } = {},
): Promise<HostedBrowser> {
  const port = await freePort();
  const base = `http://${opts.host ?? "127.0.0.1"}:${port}`;
  const s = await startTestStack({
    embedded: opts.embedded ?? false,
    env: { PUBLIC_URL: base, PORT: String(port), HOST: "127.0.0.1" },
  });
  await s.app.listen({ port, host: "127.0.0.1" });
  const callback: Server = createServer((_req, res) =>
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>callback</title><p>back</p>"),
  );
  await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
  const redirectUri = `http://127.0.0.1:${(callback.address() as { port: number }).port}/callback`;
  const app = await hostedApp(s, ["http://127.0.0.1/callback"]);
  const browser: Browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  const contexts: BrowserContext[] = [];

  async function again(page: Page, ep: string, extra: Record<string, string> = {}): Promise<HostedFlow> {
    const { verifier, challenge } = pkce();
    const params = validAuthorize(app, challenge, { redirect_uri: redirectUri, entrypoint: app.eps[ep]!, ...extra });
    const res = await page.goto(`${base}${authorizePath(params)}`);
    expect(res?.status()).toBe(200);
    return { page, verifier, state: params.state! };
  }

  return {
    s,
    app,
    again,
    async open(lang, ep, extra = {}, o = {}) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        locale: lang === "es" ? "es-ES" : "en-US",
        javaScriptEnabled: o.js ?? false,
      });
      contexts.push(context);
      const page = await context.newPage();
      const flow = await again(page, ep, extra);
      expect(await page.getAttribute("html", "lang")).toBe(lang);
      return flow;
    },
    async submit(page, name) {
      const [res] = await Promise.all([
        page.waitForNavigation(),
        page.getByRole("button", { name, exact: true }).click(),
      ]);
      return res;
    },
    async landed(flow) {
      await flow.page.waitForURL((u) => u.pathname === "/callback");
      const back = new URL(flow.page.url());
      expect(back.searchParams.get("state")).toBe(flow.state);
      const res = await fetch(`${base}/oauth2/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: s.basic(app.id, app.password) },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: back.searchParams.get("code")!,
          redirect_uri: redirectUri,
          code_verifier: flow.verifier,
        }),
      });
      expect(res.status).toBe(200);
    },
    async apiUser(ep, address, opts = {}) {
      const datas = Object.fromEntries(
        Object.entries(opts.datas ?? { name: "Ana" }).map(([k, value]) => [k, { objectType: "data", value }]),
      );
      const assertions = opts.terms === false ? {} : { [app.terms]: { objectType: "assertion", value: true } };
      const object = {
        objectType: "user",
        password: PASSWORD,
        ids: { email: { objectType: "user_id", value: address } },
        datas,
        assertions,
      };
      const res = await send(s, "POST", "/activityid/v1/user/register", app.token, app.eps[ep]!, {
        actor: { id: app.id, objectType: "application" },
        verb: "create",
        object,
        source: SOURCE,
      });
      expect(res.statusCode, res.body).toBe(201);
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close();
      await new Promise((r) => callback.close(r));
      await s.close();
    },
  };
}
