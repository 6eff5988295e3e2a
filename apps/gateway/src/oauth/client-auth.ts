import type { FastifyRequest } from "fastify";
import { ClientAuthMethod } from "@gatehouse/proto";

export interface PresentedClient {
  method: ClientAuthMethod;
  clientId: string;
  clientSecret: string;
  /** The raw Basic secret when its form-decoded reading differs and both are valid (the auth service checks both). */
  alternateClientSecret?: string;
}

export type ClientAuthResult =
  | { ok: true; client: PresentedClient; usedBasic: boolean }
  | { ok: false; reason: "INVALID_CLIENT" | "INVALID_REQUEST"; description: string; usedBasic: boolean };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A credential as text we can store and compare: not empty, at most 1024 characters, no control characters (NUL included). */
const usable = (s: string | undefined): s is string =>
  s !== undefined && s.length > 0 && s.length <= 1024 && !/\p{Cc}/u.test(s);

// RFC 6749 section 2.3.1: id and secret are form-urlencoded before Base64.
function formDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/**
 * The id and secret of HTTP Basic credentials. RFC 6749 section 2.3.1 wants
 * both form-urlencoded before Base64, yet many clients (curl -u, requests,
 * Authlib, simple-oauth2) send them raw: a secret with `%` or `+` then
 * reads differently. The form-decoded reading is used when it is valid; when
 * the raw reading is valid too and differs, it goes along as the alternate
 * and the auth service checks both (always both, so the time does not tell
 * which matched). An empty secret ("client_id:") comes back as "": a
 * client without a secret saying who it is. Invalid Base64 or UTF-8, a
 * missing colon, and ids or secrets with control characters (NUL) are
 * malformed credentials.
 */
export function basicCredentials(header: string): { id: string; secret: string; alternate?: string } | undefined {
  const m = /^Basic[ ]+([A-Za-z0-9+/]+=*)$/i.exec(header);
  if (!m) return undefined;
  let decoded: string;
  try {
    decoded = utf8.decode(Buffer.from(m[1]!, "base64"));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(":");
  if (colon <= 0) return undefined;
  const raw = { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  const form = { id: formDecode(raw.id), secret: formDecode(raw.secret) };
  if (raw.secret === "") {
    const id = usable(form.id) ? form.id : raw.id;
    return usable(id) ? { id, secret: "" } : undefined;
  }
  const rawValid = usable(raw.id) && usable(raw.secret);
  if (!usable(form.id) || !usable(form.secret)) return rawValid ? raw : undefined;
  if (!rawValid || raw.secret === form.secret) return { id: form.id, secret: form.secret };
  return { id: form.id, secret: form.secret, alternate: raw.secret };
}

/**
 * client_secret_basic, client_secret_post, or a public client's client_id
 * alone (method none, contract section 9); never two methods at once
 * (RFC 6749 section 2.3: a client MUST NOT use more than one per request).
 * Basic credentials with an empty secret are the client_id alone too:
 * requests-oauthlib and x/oauth2 (its default auth style's first try) send
 * a client without a secret that way, and Keycloak and Ory Hydra take it as
 * the public client; only a public client is then accepted (the auth
 * service), a confidential one still needs its secret.
 */
export function presentedClient(req: FastifyRequest, params: Record<string, string>): ClientAuthResult {
  const header = req.headers.authorization;
  const { client_id: bodyId, client_secret: bodySecret } = params;
  if (header !== undefined) {
    const basic = basicCredentials(header);
    if (!basic)
      return { ok: false, reason: "INVALID_CLIENT", description: "malformed Basic credentials", usedBasic: true };
    if (bodySecret !== undefined) {
      return {
        ok: false,
        reason: "INVALID_REQUEST",
        description: "use one client authentication method",
        usedBasic: true,
      };
    }
    if (bodyId !== undefined && bodyId !== basic.id) {
      return {
        ok: false,
        reason: "INVALID_REQUEST",
        description: "client_id does not match the credentials",
        usedBasic: true,
      };
    }
    if (basic.secret === "")
      return {
        ok: true,
        client: { method: ClientAuthMethod.NONE, clientId: basic.id, clientSecret: "" },
        usedBasic: true,
      };
    const client: PresentedClient = {
      method: ClientAuthMethod.CLIENT_SECRET_BASIC,
      clientId: basic.id,
      clientSecret: basic.secret,
    };
    if (basic.alternate !== undefined) client.alternateClientSecret = basic.alternate;
    return { ok: true, client, usedBasic: true };
  }
  if (bodyId === undefined)
    return { ok: false, reason: "INVALID_CLIENT", description: "client authentication required", usedBasic: false };
  if (!usable(bodyId) || (bodySecret !== undefined && !usable(bodySecret))) {
    return { ok: false, reason: "INVALID_CLIENT", description: "malformed client credentials", usedBasic: false };
  }
  if (bodySecret !== undefined) {
    return {
      ok: true,
      client: { method: ClientAuthMethod.CLIENT_SECRET_POST, clientId: bodyId, clientSecret: bodySecret },
      usedBasic: false,
    };
  }
  return { ok: true, client: { method: ClientAuthMethod.NONE, clientId: bodyId, clientSecret: "" }, usedBasic: false };
}
