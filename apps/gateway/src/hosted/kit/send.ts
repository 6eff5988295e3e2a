import type { FastifyReply } from "fastify";
import { HOSTED_CSS_HASH } from "./styles.ts";

/**
 * Sends a hosted page: never cached (it carries a one-time form token), never
 * framed (clickjacking), no script, no referrer leaking the query. The only
 * style allowed is the hosted pages' stylesheet, by its hash.
 */
export function sendPage(reply: FastifyReply, status: number, html: string) {
  // A page that says "try again shortly" says when, like the JSON answers.
  if (status === 503) reply.header("retry-after", "1");
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .headers({
      "cache-control": "no-store",
      pragma: "no-cache",
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "content-security-policy": `default-src 'none'; style-src 'sha256-${HOSTED_CSS_HASH}'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'`,
    })
    .send(html);
}
