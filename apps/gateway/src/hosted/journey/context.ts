import { create } from "@bufbuild/protobuf";
import {
  AuthorizationRequestSchema,
  CallerSchema,
  type AuthorizationRequest,
  type Caller,
  type Entrypoint,
} from "@gatehouse/proto";
import type { PendingAuthorization } from "../../oauth/authorization-request.ts";
import { AUTHORIZE_PATH } from "../paths.ts";
import type { Formats } from "../kit/form-model.ts";
import { cookieValue } from "../kit/bound-tokens.ts";
import type { HostedView } from "./view.ts";

/** Set by the passkey script (hosted/static/passkeys.js) when the browser has a user-verifying platform authenticator. */
const PASSKEY_COOKIE = "gh_passkey";

/** A hosted page being answered, with its entry point (fields, flags) and the catalog's formats. */
export interface PageContext extends HostedView {
  ep: Entrypoint;
  formats: Formats;
  /** The application asks for the ALTCHA proof of work on registration and code requests (section 17). */
  captcha: boolean;
}

/** The entry point of the request's form, read through the directory's cache; undefined when it is gone. */
export async function pageContext(v: HostedView): Promise<PageContext | undefined> {
  const dir = v.h.directory;
  const id = v.pending.entrypointId;
  const [ep, formats, captcha] = await Promise.all([dir.entrypoint(id), dir.formats(), dir.captcha(id)]);
  return ep ? { ...v, ep, formats, captcha } : undefined;
}

/** The application the login is for: a public client (an entry point id as client_id) signs in as its application. */
const applicationOf = (p: PendingAuthorization): string => p.applicationId ?? p.clientId;

/** Who the users service serves: the application and entry point of the request, the browser's address, the page's language. */
export const callerOf = (v: HostedView): Caller =>
  create(CallerSchema, {
    clientId: applicationOf(v.pending),
    entrypointId: v.pending.entrypointId,
    sourceId: "unknown",
    clientAddress: v.req.ip,
    locale: v.lang,
    // The passkey script's report that this browser can make a passkey (the offer of contract section 12).
    passkeyCapable: Boolean(v.h.deps.passkeys) && cookieValue(v.req, PASSKEY_COOKIE) === "1",
  });

/** The checked authorization request the users service binds the flow and the code to. */
export const authorizationOf = (p: PendingAuthorization): AuthorizationRequest =>
  create(AuthorizationRequestSchema, {
    clientId: p.clientId,
    redirectUri: p.redirectUri,
    scope: p.scope,
    codeChallenge: p.codeChallenge,
    nonce: p.nonce ?? "",
  });

/** The name of the application on its pages. */
export const appNameOf = (v: HostedView) => v.app.displayName || v.app.clientId;

/** Where every form of the hosted login posts: AUTHORIZE_PATH (absolute: the identity providers' callback shows pages too). */
export const FORM_ACTION = AUTHORIZE_PATH;

/** The authorization request again as a URL (relative to /oauth2/authorize): start over, switch to registration or sign-in. */
export function authorizeUrl(p: PendingAuthorization, extra: { prompt?: "create"; locale?: string } = {}): string {
  const q = new URLSearchParams({
    response_type: "code",
    client_id: p.clientId,
    redirect_uri: p.redirectUri,
    scope: p.scope,
  });
  if (p.state !== undefined) q.set("state", p.state);
  q.set("code_challenge", p.codeChallenge);
  q.set("code_challenge_method", "S256");
  if (p.nonce) q.set("nonce", p.nonce);
  q.set("entrypoint", p.entrypointId);
  const locale = extra.locale ?? p.locale;
  if (locale) q.set("ui_locales", locale);
  if (p.loginHint) q.set("login_hint", p.loginHint);
  if (extra.prompt) q.set("prompt", extra.prompt);
  return `${FORM_ACTION}?${q.toString()}`;
}

/** The links to the same page in the other language (a new authorization request with `ui_locales`). */
export function languageLinks(v: HostedView, prompt?: "create") {
  const names = { en: "English", es: "Español" } as const;
  return (["en", "es"] as const)
    .filter((l) => l !== v.lang)
    .map((l) => ({ lang: l, label: names[l], href: authorizeUrl(v.pending, { prompt, locale: l }) }));
}

/** The one-time form token of the next page (and the CSRF cookie beside it). */
export const formTokenOf = (v: HostedView) => v.h.forms.issue(v.req, v.reply, v.pending);
