import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { PendingAuthorization } from "../../oauth/authorization-request.ts";
import { AUTHORIZE_PATH } from "../paths.ts";

interface FormTokenBody extends PendingAuthorization {
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** SHA-256 of the browser's CSRF cookie: the token only works beside that cookie. */
  bind: string;
}

export const CSRF_COOKIE = "gh_login_csrf";
const FORM_TOKEN_TTL_SECONDS = 15 * 60;
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

const digest = (s: string) => createHash("sha256").update(s).digest("base64url");

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The value of one cookie of the request (no cookie plugin: this is the only cookie the gateway reads). */
export function cookieValue(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * CSRF protection of the hosted login: a signed double-submit token. The
 * browser holds a random cookie (HttpOnly, SameSite=Lax, path of the
 * authorization endpoint); the form carries a token MACed with a key derived
 * from SECRET_KEY (so any gateway replica checks it) that names the SHA-256
 * of that cookie, the validated authorization request and an expiry (15 min).
 * A POST needs both, matching: another site can neither read the cookie nor
 * forge the token.
 */
export function formTokens(mac: (data: string) => string, opts: { secureCookie: boolean }) {
  return {
    /** A token for a form shown to this browser; (re)sets the CSRF cookie. */
    issue(req: FastifyRequest, reply: FastifyReply, pending: PendingAuthorization): string {
      let cookie = cookieValue(req, CSRF_COOKIE);
      // The same value across tabs (each form keeps working); its lifetime restarts with every form.
      if (!cookie || !COOKIE_VALUE.test(cookie)) cookie = randomBytes(32).toString("base64url");
      const secure = opts.secureCookie ? "; Secure" : "";
      reply.header(
        "set-cookie",
        `${CSRF_COOKIE}=${cookie}; Path=${AUTHORIZE_PATH}; Max-Age=${FORM_TOKEN_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure}`,
      );
      const body: FormTokenBody = {
        ...pending,
        exp: Math.floor(Date.now() / 1000) + FORM_TOKEN_TTL_SECONDS,
        bind: digest(cookie),
      };
      const payload = Buffer.from(JSON.stringify(body)).toString("base64url");
      return `${payload}.${mac(`hosted-login.${payload}`)}`;
    },

    /** The authorization request of a posted form when its token is genuine, current and bound to this browser's cookie. */
    verify(req: FastifyRequest, token: string): PendingAuthorization | undefined {
      const [payload, signature, extra] = token.split(".");
      if (!payload || !signature || extra !== undefined) return undefined;
      if (!safeEqual(signature, mac(`hosted-login.${payload}`))) return undefined;
      let body: FormTokenBody;
      try {
        body = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as FormTokenBody;
      } catch {
        return undefined;
      }
      const cookie = cookieValue(req, CSRF_COOKIE);
      if (!cookie || !safeEqual(digest(cookie), body.bind) || body.exp <= Date.now() / 1000) return undefined;
      const { exp: _exp, bind: _bind, ...pending } = body;
      return pending;
    },
  };
}

export type FormTokens = ReturnType<typeof formTokens>;
