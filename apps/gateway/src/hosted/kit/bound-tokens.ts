import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

const digest = (s: string) => createHash("sha256").update(s).digest("base64url");

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The value of one cookie of the request (no cookie plugin: the hosted pages' CSRF cookies are all the gateway reads). */
export function cookieValue(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface BoundTokenOptions {
  /** The CSRF cookie's name and path (the pages that post the forms). */
  cookie: string;
  path: string;
  /** Prefix of the MACed text, so a token of one kind never verifies as another. */
  purpose: string;
  ttlSeconds: number;
  secureCookie: boolean;
}

/**
 * A signed double-submit token: the browser holds a random cookie
 * (HttpOnly, SameSite=Lax, on `path`); the token carries `body`, an expiry
 * and the SHA-256 of that cookie, MACed with a key derived from SECRET_KEY
 * (so any gateway replica checks it). It verifies only beside the cookie:
 * another site can neither read the cookie nor forge the token.
 */
export function boundTokens<T extends object>(mac: (data: string) => string, o: BoundTokenOptions) {
  return {
    /** A token for this browser; (re)sets its cookie. */
    issue(req: FastifyRequest, reply: FastifyReply, body: T): string {
      let cookie = cookieValue(req, o.cookie);
      // The same value across tabs (each form keeps working); its lifetime restarts with every token.
      if (!cookie || !COOKIE_VALUE.test(cookie)) cookie = randomBytes(32).toString("base64url");
      const secure = o.secureCookie ? "; Secure" : "";
      reply.header(
        "set-cookie",
        `${o.cookie}=${cookie}; Path=${o.path}; Max-Age=${o.ttlSeconds}; HttpOnly; SameSite=Lax${secure}`,
      );
      const signed = { ...body, exp: Math.floor(Date.now() / 1000) + o.ttlSeconds, bind: digest(cookie) };
      const payload = Buffer.from(JSON.stringify(signed)).toString("base64url");
      return `${payload}.${mac(`${o.purpose}.${payload}`)}`;
    },

    /** The body of a token that is genuine, current and bound to this browser's cookie. */
    verify(req: FastifyRequest, token: string): T | undefined {
      const [payload, signature, extra] = token.split(".");
      if (!payload || !signature || extra !== undefined) return undefined;
      if (!safeEqual(signature, mac(`${o.purpose}.${payload}`))) return undefined;
      let signed: T & { exp: number; bind: string };
      try {
        signed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as T & { exp: number; bind: string };
      } catch {
        return undefined;
      }
      const cookie = cookieValue(req, o.cookie);
      if (!cookie || !safeEqual(digest(cookie), signed.bind) || signed.exp <= Date.now() / 1000) return undefined;
      const { exp: _exp, bind: _bind, ...body } = signed;
      return body as T;
    },
  };
}
