import { TOTP, Secret } from "otpauth";
import { expect } from "vitest";
import * as commands from "../src/cli/commands.ts";
import { runCli, type CliIo } from "../src/cli/program.ts";
import { authorizePath, formOf, pkce } from "./oauth-flow.ts";
import type { TestStack } from "./stack-helpers.ts";

// Operator persons through a stack (app.inject): create-operator's link, the
// activation page, the console's sign-in at the hosted login with the TOTP
// enrolment or code, the code bought by the public client gatehouse-console.

export const CONSOLE = "gatehouse-console";
export const OPERATOR_PASSWORD = "operator passphrase 42";

/** The CLI beside the stack, on the same database, Redis and key (the env the stack was started with). */
export async function cli(argv: string[], env: NodeJS.ProcessEnv) {
  let out = "";
  let err = "";
  const io: CliIo = { out: (t) => void (out += t), err: (t) => void (err += t), tty: false };
  const code = await runCli(Object.values(commands), argv, { io, env });
  return { code, out, err };
}

/** The code of an authenticator app for the secret, `offset` time steps away (each step works once per user). */
export const totpOf = (secret: string, offset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({
    timestamp: Date.now() + offset * 30_000,
  });

const hidden = (body: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1];

/** A hosted form posted back with its cookie (what the browser does). */
export function post(s: TestStack, cookie: string, fields: Record<string, string>) {
  return s.app.inject({
    method: "POST",
    url: "/oauth2/authorize",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** Activates the operator's account at create-operator's link with `password`. */
export async function activate(s: TestStack, link: string, password = OPERATOR_PASSWORD) {
  const url = new URL(link);
  const page = await s.app.inject({ method: "GET", url: `${url.pathname}${url.search}` });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain('name="password"');
  const done = await s.app.inject({
    method: "POST",
    url: url.pathname,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ token: url.searchParams.get("token")!, password }).toString(),
  });
  expect(done.statusCode).toBe(200);
}

/** The console's authorization request (as apps/console sends it) and its PKCE pair. */
export function consoleRequest(s: TestStack, extra: Record<string, string> = {}) {
  const { verifier, challenge } = pkce();
  const params = {
    client_id: CONSOLE,
    redirect_uri: `${s.config.publicBaseUrl}/console/callback`,
    response_type: "code",
    scope: "openid admin",
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: `st-${Math.random().toString(36).slice(2)}`,
    ...extra,
  };
  return { params, verifier, path: authorizePath(params) };
}

/** The console's sign-in up to the page after the password: the answer and the form's cookie. */
export async function signIn(
  s: TestStack,
  email: string,
  password = OPERATOR_PASSWORD,
  extra: Record<string, string> = {},
) {
  const req = consoleRequest(s, extra);
  const page = await s.app.inject({ method: "GET", url: req.path });
  expect(page.statusCode).toBe(200);
  const form = formOf(page);
  const after = await post(s, form.cookie, { form_token: form.token, email, password });
  return { ...req, after, cookie: formOf(after, form.cookie).cookie };
}

/** The enrolment page's parts: its secret (the text shown), its hidden fields. */
export function enrolmentOf(body: string) {
  const secret = hidden(body, "totp_secret")!;
  return {
    secret,
    shownSecret: /<code aria-labelledby="secret-label">([^<]+)<\/code>/.exec(body)?.[1]?.replace(/\s/g, ""),
    fields: {
      form_token: hidden(body, "form_token")!,
      intent: "enrol",
      enrol_token: hidden(body, "enrol_token")!,
      totp_secret: secret,
      otpauth_url: hidden(body, "otpauth_url")!.replaceAll("&amp;", "&"),
    },
  };
}

export const formTokenIn = (body: string) => hidden(body, "form_token")!;
export const mfaTokenIn = (body: string) => hidden(body, "mfa_token")!;

/** The code of the redirect to the console's callback, bought by the public client with its verifier. */
export async function consoleTokens(s: TestStack, location: string, verifier: string, state: string) {
  const back = new URL(location);
  expect(`${back.origin}${back.pathname}`).toBe(`${s.config.publicBaseUrl}/console/callback`);
  expect(back.searchParams.get("state")).toBe(state);
  const res = await s.app.inject({
    method: "POST",
    url: "/oauth2/token",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: CONSOLE,
      code: back.searchParams.get("code")!,
      redirect_uri: `${s.config.publicBaseUrl}/console/callback`,
      code_verifier: verifier,
    }).toString(),
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ access_token: string; refresh_token: string; scope: string; id_token: string }>();
}
