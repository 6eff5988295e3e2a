import type { FastifyRequest } from "fastify";
import { ClientAuthMethod } from "@gatehouse/proto";

export interface PresentedClient {
  method: ClientAuthMethod;
  clientId: string;
  clientSecret: string;
}

export type ClientAuthResult =
  | { ok: true; client: PresentedClient; usedBasic: boolean }
  | { ok: false; reason: "INVALID_CLIENT" | "INVALID_REQUEST"; description: string; usedBasic: boolean };

// RFC 6749 section 2.3.1: id and secret are form-urlencoded before Base64.
function formDecode(s: string): string | undefined {
  if (!s.includes("%") && !s.includes("+")) return s;
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/**
 * client_secret_basic or client_secret_post, never both (RFC 6749 section
 * 2.3: a client MUST NOT use more than one method per request).
 */
export function presentedClient(req: FastifyRequest, params: Record<string, string>): ClientAuthResult {
  const header = req.headers.authorization;
  const { client_id: bodyId, client_secret: bodySecret } = params;
  if (header !== undefined) {
    const m = /^Basic[ ]+([A-Za-z0-9+/]+=*)$/i.exec(header);
    const decoded = m ? Buffer.from(m[1]!, "base64").toString("utf8") : "";
    const colon = decoded.indexOf(":");
    const id = colon > 0 ? formDecode(decoded.slice(0, colon)) : undefined;
    const secret = colon > 0 ? formDecode(decoded.slice(colon + 1)) : undefined;
    if (!id || secret === undefined) {
      return { ok: false, reason: "INVALID_CLIENT", description: "malformed Basic credentials", usedBasic: true };
    }
    if (bodySecret !== undefined) {
      return { ok: false, reason: "INVALID_REQUEST", description: "use one client authentication method", usedBasic: true };
    }
    if (bodyId !== undefined && bodyId !== id) {
      return { ok: false, reason: "INVALID_REQUEST", description: "client_id does not match the credentials", usedBasic: true };
    }
    return { ok: true, client: { method: ClientAuthMethod.CLIENT_SECRET_BASIC, clientId: id, clientSecret: secret }, usedBasic: true };
  }
  if (bodyId !== undefined && bodySecret !== undefined) {
    return { ok: true, client: { method: ClientAuthMethod.CLIENT_SECRET_POST, clientId: bodyId, clientSecret: bodySecret }, usedBasic: false };
  }
  return { ok: false, reason: "INVALID_CLIENT", description: "client authentication required", usedBasic: false };
}
