import type { TestStack } from "../stack-helpers.ts";
import { authorizePath, formOf, pkce, validAuthorize } from "../oauth-flow.ts";
import { createApp, loggedUser } from "../user-flows.ts";
import type { Schema } from "./arbitraries.ts";

/** What the generated requests use of a running stack. */
export interface FuzzContext {
  operatorToken: string;
  appToken: string;
  userToken: string;
  clientId: string;
  clientSecret: string;
  entrypoint: string;
  redirectUri: string;
  userId: string;
  pulseId: string;
  assertionKey: string;
  origin: string;
  userEmail: string;
  /** A genuine hosted-login form token and the CSRF cookie it is bound to: posts reach the hosted pages' handlers. */
  formToken: string;
  formCookie: string;
}

/** Real tokens and ids of a running stack: an operator, an application with its APP_TOKEN, a logged-in user. */
export async function fuzzContext(s: TestStack): Promise<FuzzContext> {
  const app = await createApp(s, "fuzz");
  const user = await loggedUser(s, app);
  const page = await s.app.inject({ method: "GET", url: authorizePath(validAuthorize(app, pkce().challenge)) });
  const form = formOf(page);
  return {
    operatorToken: await s.operatorToken(),
    appToken: app.token,
    userToken: user.accessToken,
    clientId: app.id,
    clientSecret: app.password,
    entrypoint: app.entrypoint,
    redirectUri: "https://shop.example.com/callback",
    userId: String(user.id),
    pulseId: user.pulseId,
    assertionKey: "terms",
    origin: new URL(s.config.publicBaseUrl).origin,
    userEmail: user.email,
    formToken: form.token,
    formCookie: form.cookie,
  };
}

/** The stack's OpenAPI document and a resolver of its `$ref`s. */
export async function openApi(s: TestStack): Promise<{ doc: Schema; resolve: (ref: string) => Schema | undefined }> {
  const doc = (await s.app.inject({ method: "GET", url: "/openapi.json" })).json<Schema>();
  const schemas = (doc.components?.schemas ?? {}) as Record<string, Schema>;
  const resolve = (ref: string) => schemas[ref.replace(/^#\/components\/schemas\//, "")];
  return { doc, resolve };
}
