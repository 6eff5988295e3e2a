import { createHash } from "node:crypto";
import type { FastifyReply } from "fastify";
import type { Locale } from "@gatehouse/errors";

/** Escapes text for HTML content and double-quoted attribute values. */
export function esc(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// One stylesheet, inline and allowed by its hash: the pages load nothing else and run no script.
const STYLE = [
  "*{box-sizing:border-box}",
  "body{margin:0;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1a1a1a;background:#f4f5f7}",
  "main{max-width:26rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:.5rem;box-shadow:0 1px 3px rgba(0,0,0,.15)}",
  "h1{font-size:1.5rem;margin:0 0 1rem}",
  "label{display:block;font-weight:600;margin:1rem 0 .25rem}",
  "input{width:100%;font-size:1rem;padding:.75rem;border:1px solid #6b6b6b;border-radius:.25rem}",
  "input:focus,button:focus,a:focus{outline:3px solid #1557b0;outline-offset:2px}",
  "button{width:100%;margin-top:1.5rem;padding:.75rem;font-size:1rem;font-weight:600;color:#fff;background:#1557b0;border:0;border-radius:.25rem;cursor:pointer}",
  ".error{color:#a50e0e;background:#fce8e6;padding:.75rem;border-radius:.25rem}",
  "a{color:#1557b0}",
  "@media (max-width:30rem){main{margin:0;border-radius:0;box-shadow:none;min-height:100vh}}",
].join("");
const STYLE_HASH = createHash("sha256").update(STYLE).digest("base64");

/** A complete page: language, phone viewport, title, one main landmark. */
export function page(lang: Locale, title: string, body: string): string {
  return [
    "<!doctype html>",
    `<html lang="${lang}">`,
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${esc(title)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    `<body><main>${body}</main></body>`,
    "</html>",
  ].join("\n");
}

/**
 * Sends a hosted page: never cached (it carries a one-time form token), never
 * framed (clickjacking), no script, no referrer leaking the query.
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
      "content-security-policy": `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'`,
    })
    .send(html);
}
