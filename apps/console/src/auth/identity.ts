import type { Session } from "./session.ts";

// Who is signed in, for the console to show: the email claim of the ID token
// (else of the access token). Display only: the tokens were obtained from the
// token endpoint over TLS and the admin API checks every request itself.

function claims(jwt: string | undefined): Record<string, unknown> | undefined {
  const payload = jwt?.split(".")[1];
  if (!payload) return undefined;
  try {
    const json = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0));
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The signed-in operator's email, or undefined (an operator client's token carries none). */
export function signedInEmail(s: Session | undefined): string | undefined {
  for (const jwt of [s?.idToken, s?.accessToken]) {
    const email = claims(jwt)?.email;
    if (typeof email === "string" && email) return email;
  }
  return undefined;
}
