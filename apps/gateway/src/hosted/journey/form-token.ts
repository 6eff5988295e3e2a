import type { PendingAuthorization } from "../../oauth/authorization-request.ts";
import { boundTokens } from "../kit/bound-tokens.ts";
import { AUTHORIZE_PATH } from "../paths.ts";

export const CSRF_COOKIE = "gh_login_csrf";
const FORM_TOKEN_TTL_SECONDS = 15 * 60;

/**
 * CSRF protection of the hosted login: a signed double-submit token
 * (kit/bound-tokens.ts) whose cookie lives on the authorization endpoint's
 * path and which names the validated authorization request and an expiry
 * (15 min). A POST needs both, matching.
 */
export function formTokens(mac: (data: string) => string, opts: { secureCookie: boolean }) {
  return boundTokens<PendingAuthorization>(mac, {
    cookie: CSRF_COOKIE,
    path: AUTHORIZE_PATH,
    purpose: "hosted-login",
    ttlSeconds: FORM_TOKEN_TTL_SECONDS,
    secureCookie: opts.secureCookie,
  });
}

export type FormTokens = ReturnType<typeof formTokens>;
