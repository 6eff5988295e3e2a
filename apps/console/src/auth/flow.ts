import { currentLanguage } from "../i18n/language.ts";
import { authorizationRequest, discover, exchangeCode, logoutUrl, OAuthError, revokeAll } from "./oidc.ts";
import { randomToken } from "./pkce.ts";
import { clearPending, loadPending, savePending } from "./session.ts";
import { getSession, setSession } from "./store.ts";

// The three moves of the console's sign-in: go to the hosted login, come
// back with a code, and sign out (revoke, then end the hosted-login session).

/** Leaves for Gatehouse's hosted login; `returnTo` is the console path to reopen afterwards. */
export async function startSignIn(returnTo: string): Promise<void> {
  const meta = await discover();
  const req = await authorizationRequest(meta, currentLanguage());
  savePending({ state: req.state, verifier: req.verifier, returnTo });
  location.assign(req.url);
}

export type CallbackOutcome =
  | { kind: "signed-in"; returnTo: string }
  | { kind: "signed-out" }
  | { kind: "failed"; reason: "state" | "error"; message: string };

/** The redirect back to /console/callback: checks state, exchanges the code (PKCE verifier), keeps the session. */
export async function completeCallback(params: URLSearchParams): Promise<CallbackOutcome> {
  const pending = loadPending();
  clearPending();
  const state = params.get("state");
  if (!pending || !state || state !== pending.state) return { kind: "failed", reason: "state", message: "" };
  if (pending.signedOut) return { kind: "signed-out" };
  const error = params.get("error");
  if (error) return { kind: "failed", reason: "error", message: params.get("error_description") || error };
  const code = params.get("code");
  if (!code || !pending.verifier) return { kind: "failed", reason: "error", message: "no code" };
  try {
    setSession(await exchangeCode(await discover(), code, pending.verifier));
  } catch (e) {
    return { kind: "failed", reason: "error", message: e instanceof OAuthError ? e.message : String(e) };
  }
  const back =
    pending.returnTo && pending.returnTo.startsWith("/") && !pending.returnTo.startsWith("//")
      ? pending.returnTo
      : "/apps";
  return { kind: "signed-in", returnTo: back };
}

/** Revokes the tokens, forgets the session and ends the hosted-login session (back to the callback, signed out). */
export async function signOut(): Promise<void> {
  const s = getSession();
  setSession(undefined);
  let meta;
  try {
    meta = await discover();
  } catch {
    return;
  }
  if (s) await revokeAll(meta, s);
  const state = randomToken();
  savePending({ state, signedOut: true });
  location.assign(logoutUrl(meta, s, state));
}
