import { discover, refresh } from "./oidc.ts";
import { clearSession, loadSession, saveSession, type Session } from "./session.ts";

// The signed-in session as a small store React subscribes to
// (useSyncExternalStore). Access tokens are refreshed when about to expire.

const listeners = new Set<() => void>();
let current: Session | undefined = loadSession();
let refreshing: Promise<Session | undefined> | undefined;
let expired = false;

/** True when the server ended the session (a refused token or refresh), for the sign-in screen to say so. */
export const sessionExpired = () => expired;

export const getSession = () => current;

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setSession(s: Session | undefined, opts: { expired?: boolean } = {}): void {
  current = s;
  expired = Boolean(opts.expired);
  if (s) saveSession(s);
  else clearSession();
  for (const l of listeners) l();
}

/** Refreshes with the refresh token; without one (or when refused) the operator is signed out. */
export function refreshSession(): Promise<Session | undefined> {
  const s = current;
  if (!s?.refreshToken) {
    setSession(undefined, { expired: true });
    return Promise.resolve(undefined);
  }
  refreshing ??= discover()
    .then((meta) => refresh(meta, s))
    .then(
      (next) => (setSession(next), next),
      () => (setSession(undefined, { expired: true }), undefined),
    )
    .finally(() => (refreshing = undefined));
  return refreshing;
}

/** A valid access token, refreshed first when it expires within 30 seconds. */
export async function accessToken(): Promise<string | undefined> {
  const s = current;
  if (!s) return undefined;
  if (s.expiresAt - Date.now() > 30_000 || !s.refreshToken) return s.accessToken;
  return (await refreshSession())?.accessToken;
}
