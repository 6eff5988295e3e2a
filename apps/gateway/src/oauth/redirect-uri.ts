import type { FastifyReply } from "fastify";

// RFC 8252 section 7.3: a loopback IP redirect URI of a native app, written
// exactly (no normalisation): http, 127.0.0.1 or [::1], optional port, then
// path and query with no fragment and no characters a browser would rewrite.
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?(\/[\x21\x22\x24-\x7E]*)?$/;

/**
 * Whether `requested` may receive the authorization response: simple string
 * comparison with one of the application's registered redirect URIs
 * (RFC 6749 section 3.1.2.3, RFC 9700 section 4.1.3): no case folding, no
 * percent-decoding, no path or query normalisation. The one exception is the
 * RFC 8252 loopback rule for native apps: when the registered URI is an
 * http loopback IP literal (127.0.0.1 or [::1]), any port is accepted at
 * request time; host, path and query must still be identical. `localhost` is
 * never a loopback URI here (RFC 8252 section 8.3: it may resolve elsewhere).
 */
export function redirectUriAllowed(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  const req = LOOPBACK.exec(requested);
  if (!req) return false;
  return registered.some((uri) => {
    const reg = LOOPBACK.exec(uri);
    return reg !== null && reg[1] === req[1] && (reg[3] ?? "") === (req[3] ?? "") && validPort(req[2]);
  });
}

const validPort = (port: string | undefined) =>
  port === undefined || (Number(port) >= 1 && Number(port) <= 65535 && !port.startsWith("0"));

/**
 * The redirect URI with the response parameters appended to its query (RFC
 * 6749 section 4.1.2: the registered query is kept as it is); unchanged
 * when every parameter is undefined.
 */
export function withResponseParams(redirectUri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.append(k, v);
  // Nothing to add (a logout without state): the URI as registered, not with an empty query.
  if (query.size === 0) return redirectUri;
  const separator = redirectUri.includes("?")
    ? redirectUri.endsWith("?") || redirectUri.endsWith("&")
      ? ""
      : "&"
    : "?";
  return `${redirectUri}${separator}${query.toString()}`;
}

/** The authorization response (RFC 6749 section 4.1.2; `iss` per RFC 9207) at the exact redirect URI. */
export function redirectToClient(
  reply: FastifyReply,
  status: 302 | 303,
  redirectUri: string,
  params: Record<string, string | undefined>,
  issuer: string,
) {
  const location = withResponseParams(redirectUri, { ...params, iss: issuer });
  return reply.code(status).headers({ location, "cache-control": "no-store", "referrer-policy": "no-referrer" }).send();
}
