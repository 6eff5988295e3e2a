// The console's sign-in lives in sessionStorage (this tab only, gone when it
// closes) under one key. Tests start signed in by writing this key before the
// app loads (playwright addInitScript) with an operator's access token.

/** The sessionStorage key of the signed-in session. */
export const SESSION_KEY = "gatehouse.console.session";
/** The sessionStorage key of a sign-in (or sign-out) under way: PKCE verifier, state, where to return. */
export const PENDING_KEY = "gatehouse.console.pending";

export interface Session {
  accessToken: string;
  /** Epoch milliseconds when the access token expires. */
  expiresAt: number;
  refreshToken?: string;
  idToken?: string;
  scope?: string;
}

export interface Pending {
  state: string;
  verifier?: string;
  /** The console path to open after sign-in. */
  returnTo?: string;
  /** A sign-out on its way back from /oauth2/logout. */
  signedOut?: boolean;
}

function read<T>(key: string): T | undefined {
  try {
    const raw = sessionStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}

export function loadSession(): Session | undefined {
  const s = read<Session>(SESSION_KEY);
  return s && typeof s.accessToken === "string" && s.accessToken ? s : undefined;
}

export const saveSession = (s: Session) => sessionStorage.setItem(SESSION_KEY, JSON.stringify(s));
export const clearSession = () => sessionStorage.removeItem(SESSION_KEY);
export const loadPending = () => read<Pending>(PENDING_KEY);
export const savePending = (p: Pending) => sessionStorage.setItem(PENDING_KEY, JSON.stringify(p));
export const clearPending = () => sessionStorage.removeItem(PENDING_KEY);
