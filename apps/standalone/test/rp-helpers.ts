import { expect } from "vitest";
import { freePort } from "./processes.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";

// Gatehouse as relying-party libraries see it: the stack (PostgreSQL +
// Redis) on a real port, and the user's part of the hosted login played
// with fetch (GET the form, post it back with its cookie).

/** The signing algorithms SIGNING_ALG offers (contract section 9); RS256 is the default. */
export const SIGNING_ALGS = ["RS256", "ES256", "EdDSA"] as const;

/** The whole system listening on 127.0.0.1, PUBLIC_URL = its address. */
export async function listeningStack(env: Record<string, string> = {}): Promise<{ s: TestStack; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const s = await startTestStack({ env: { PUBLIC_URL: base, PORT: String(port), HOST: "127.0.0.1", ...env } });
  await s.app.listen({ port, host: "127.0.0.1" });
  return { s, base };
}

/** GET the hosted login, post the form with its cookie, return the redirect it answers. */
export async function hostedLogin(authorizationUrl: URL | string, email: string, password: string): Promise<URL> {
  const page = await fetch(authorizationUrl, { redirect: "manual" });
  expect(page.status).toBe(200);
  const html = await page.text();
  const token = /name="form_token" value="([^"]+)"/.exec(html)![1]!;
  const cookie = page.headers.get("set-cookie")!.split(";")[0]!;
  const done = await fetch(new URL("/oauth2/authorize", authorizationUrl), {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({ form_token: token, email, password }),
  });
  expect(done.status).toBe(303);
  return new URL(done.headers.get("location")!);
}
