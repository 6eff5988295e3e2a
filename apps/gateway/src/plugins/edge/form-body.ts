import fp from "fastify-plugin";
import { isCleanUrlEncoded } from "./text.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const invalidText = () =>
  Object.assign(new Error("the form carries a NUL byte or text that is not valid UTF-8"), { statusCode: 400 });

/**
 * Forms this parser made: clean text throughout (the whole body decodes
 * cleanly, and `&` and `=` cannot split a UTF-8 sequence, so every name and
 * value does) and flat, so the edge's walk of bodies without a schema
 * (inspectBody) has nothing to find in them and skips them.
 */
const cleanForms = new WeakSet<object>();
export const isCleanForm = (body: unknown): boolean =>
  typeof body === "object" && body !== null && cleanForms.has(body);

/** `a=1&b=2&b=3` as `{a: "1", b: ["2", "3"]}` (a repeated name becomes a list, as @fastify/formbody does). */
function parseForm(text: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  cleanForms.add(out);
  return out;
}

/**
 * application/x-www-form-urlencoded bodies for the scope that registers it
 * (OAuth endpoints, hosted pages). Unlike @fastify/formbody, which decodes
 * bad UTF-8 to U+FFFD and keeps bad escapes as text, a body whose bytes or
 * escapes are not clean UTF-8 text (or carry a NUL) is a 400.
 */
export const formBody = fp<{ bodyLimit?: number }>(
  async (app, opts) => {
    app.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "buffer", bodyLimit: opts.bodyLimit },
      (_req, body, done) => {
        let text: string;
        try {
          text = utf8.decode(body as Buffer);
        } catch {
          done(invalidText(), undefined);
          return;
        }
        if (!isCleanUrlEncoded(text)) return done(invalidText(), undefined);
        done(null, parseForm(text));
      },
    );
  },
  { name: "gatehouse-form-body" },
);
