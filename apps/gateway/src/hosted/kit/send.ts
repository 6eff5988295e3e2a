import type { FastifyReply } from "fastify";
import { HOSTED_CSS_HASH } from "./styles.ts";

/** What a page may load beyond its hashed stylesheet. */
interface PageNeeds {
  /** `script-src 'self'`: the static scripts of passkeys (never inline script, never another origin). */
  scripts?: boolean;
  /** `img-src 'self'`: the favicon. */
  images: boolean;
  /** `form-action 'self'`: its forms post to this origin only. */
  formAction: boolean;
  /** `Pragma: no-cache` beside `Cache-Control: no-store`, for HTTP/1.0 caches. */
  pragma: boolean;
  /** The ALTCHA widget: besides its scripts, its worker and stylesheet from this origin (`'self'`), never inline. */
  widget?: boolean;
}

export interface PagePolicy extends PageNeeds {
  csp: string;
}

const policy = (needs: PageNeeds): PagePolicy => ({
  ...needs,
  csp: [
    "default-src 'none'",
    ...(needs.scripts ? ["script-src 'self'"] : []),
    ...(needs.widget ? ["worker-src 'self'"] : []),
    `style-src 'sha256-${HOSTED_CSS_HASH}'${needs.widget ? " 'self'" : ""}`,
    ...(needs.images ? ["img-src 'self'"] : []),
    ...(needs.formAction ? ["form-action 'self'"] : []),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; "),
});

/** Every page's policy but the terms page's. */
const PAGE = policy({ images: true, formAction: false, pragma: true });

/** A page of the hosted login that loads the passkey scripts (login, registration, the passkey offer). */
export const SCRIPT_POLICY = policy({ images: true, formAction: false, pragma: true, scripts: true });

/** A page with the ALTCHA widget (registration, code requests of an application with `captcha: "altcha"`): also its worker and stylesheet. */
export const CAPTCHA_POLICY = policy({ images: true, formAction: false, pragma: true, scripts: true, widget: true });

/** The terms page's (older): its forms post to itself only; no Pragma; the favicon like every page (browsers ask for it). */
export const TERMS_POLICY = policy({ images: true, formAction: true, pragma: false });

/**
 * Sends a hosted page: never cached (it carries a one-time form token), never
 * framed (clickjacking), no script, no referrer leaking the query. The only
 * style allowed is the hosted pages' stylesheet, by its hash.
 */
export function sendPage(reply: FastifyReply, status: number, html: string, p: PagePolicy = PAGE) {
  // A page that says "try again shortly" says when, like the JSON answers.
  if (status === 503) reply.header("retry-after", "1");
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .headers({
      "cache-control": "no-store",
      ...(p.pragma ? { pragma: "no-cache" } : {}),
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "content-security-policy": p.csp,
    })
    .send(html);
}
