import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { PendingAuthorization } from "../../oauth/authorization-request.ts";
import { cookieValue } from "../kit/bound-tokens.ts";
import { IDP_CALLBACK_PATH } from "../paths.ts";

/**
 * The browser's half of a social sign-in: the hosted login's authorization
 * request and the users service's sealed transaction (state, nonce, PKCE
 * verifier), MACed by the gateway (key "hosted-login", label "idp"), in an
 * HttpOnly cookie on the callback's path for 10 minutes. SameSite=Lax: the
 * provider's redirect back is a top-level GET, which carries it; the state
 * the provider returns must be the one sealed inside (the browser that
 * started is the one that finishes).
 */
export const IDP_COOKIE = "gh_idp";
const TTL_SECONDS = 600;

interface Started {
  pending: PendingAuthorization;
  transaction: string;
}

const digest = (s: string) => createHash("sha256").update(s).digest();

export function upstreamCookies(mac: (data: string) => string, opts: { secureCookie: boolean }) {
  const attributes = `Path=${IDP_CALLBACK_PATH}; HttpOnly; SameSite=Lax${opts.secureCookie ? "; Secure" : ""}`;
  return {
    set(reply: FastifyReply, started: Started): void {
      const payload = Buffer.from(JSON.stringify(started)).toString("base64url");
      reply.header(
        "set-cookie",
        `${IDP_COOKIE}=${payload}.${mac(`idp.${payload}`)}; Max-Age=${TTL_SECONDS}; ${attributes}`,
      );
    },
    /** The started sign-in of this browser when the cookie is genuine; the cookie is cleared either way (one use). */
    take(req: FastifyRequest, reply: FastifyReply): Started | undefined {
      const raw = cookieValue(req, IDP_COOKIE);
      if (raw === undefined) return undefined;
      reply.header("set-cookie", `${IDP_COOKIE}=; Max-Age=0; ${attributes}`);
      const [payload, signature, extra] = raw.split(".");
      if (!payload || !signature || extra !== undefined) return undefined;
      if (!timingSafeEqual(digest(signature), digest(mac(`idp.${payload}`)))) return undefined;
      try {
        const started = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Started;
        return typeof started.transaction === "string" && started.pending ? started : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

export type UpstreamCookies = ReturnType<typeof upstreamCookies>;
