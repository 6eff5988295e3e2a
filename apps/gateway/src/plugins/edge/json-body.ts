import type { FastifyInstance } from "fastify";
import { MAX_JSON_DEPTH } from "./text.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const clientError = (message: string) => Object.assign(new Error(message), { statusCode: 400 });

/** Whether a parsed JSON value nests deeper than `max` (checked without recursion). */
export function nestsDeeper(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The JSON parser of the gateway: Fastify's own (secure-json-parse, so a
 * `__proto__` key is a 400) behind a strict UTF-8 decoder (bad bytes are a
 * 400, never U+FFFD) and a nesting limit (a deep body is a 400 before any
 * validator or walker recurses into it). Oversized bodies stay Fastify's 413.
 */
export function strictJsonParser(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (req, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(clientError("the body is not valid UTF-8"), undefined);
      return;
    }
    parse(req, text, (err, value) => {
      if (err) return done(err, undefined);
      if (nestsDeeper(value, MAX_JSON_DEPTH))
        return done(clientError(`the JSON body nests deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      done(null, value);
    });
  });
}
