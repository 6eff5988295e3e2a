import { Readable } from "node:stream";
import fp from "fastify-plugin";
import { clientErrorHandler, frameworkErrors, serverEdgeEvents } from "./client-errors.ts";
import { isCleanForm } from "./form-body.ts";
import { strictJsonParser } from "./json-body.ts";
import { sendEdgeError } from "./respond.ts";
import { inspectBody, isCleanUrlEncoded, MAX_JSON_DEPTH } from "./text.ts";

export { formBody } from "./form-body.ts";

/**
 * Fastify and Node server options of the edge: every client error raised
 * before routing is enveloped, and a request must arrive in time. The whole
 * request (headers and body) within `requestTimeoutSeconds` (default 20), its
 * headers within half of that; Node checks every second, so a stalled request
 * is cut off with 408 at most a second later (contract section 10: 30 s).
 * Headers over 16 KB (Node's maxHeaderSize) are a 431. An HTTP/1.1 request
 * without Host is refused by the edge hook below, in the envelope (Node's own
 * refusal has no body).
 */
export function edgeServerOptions(requestTimeoutSeconds: number) {
  const requestTimeout = requestTimeoutSeconds * 1000;
  return {
    requestTimeout,
    http: {
      requireHostHeader: false,
      headersTimeout: Math.max(1000, Math.floor(requestTimeout / 2)),
      connectionsCheckingInterval: 1000,
      maxHeaderSize: 16 * 1024,
    },
    clientErrorHandler,
    frameworkErrors,
  };
}

/**
 * Input at the edge, in one place for every route (contract section 10): a
 * URL (path or query) whose escapes decode to a NUL or to anything but UTF-8
 * text is a 400 before routing goes on; JSON bodies are decoded strictly and
 * at most MAX_JSON_DEPTH deep; a body that reaches a route without a body
 * schema (forms) is inspected before its handler runs. Bodies with a schema
 * are inspected by the validator (plugins/validation.ts), so their NULs are
 * field errors like any other; forms are checked whole by their parser
 * (./form-body.ts).
 */
export const edge = fp(async (app) => {
  strictJsonParser(app);
  serverEdgeEvents(app.server);

  app.addHook("onRequest", async (req, reply) => {
    // RFC 9112 section 3.2: a server MUST answer 400 to an HTTP/1.1 request without Host.
    if (req.headers.host === undefined && req.raw.httpVersion === "1.1") {
      reply.header("connection", "close");
      return sendEdgeError(req, reply, "MALFORMED_REQUEST", { details: "an HTTP/1.1 request needs a Host header" });
    }
    if (!isCleanUrlEncoded(req.url)) {
      return sendEdgeError(req, reply, "MALFORMED_REQUEST", {
        details: "the URL carries a NUL byte, a bad escape or text that is not valid UTF-8",
      });
    }
  });

  app.addHook("preHandler", async (req, reply) => {
    if (req.body === undefined || req.body === null || req.routeOptions.schema?.body || isCleanForm(req.body)) return;
    if (req.body instanceof Readable) return; // a streamed body (the NDJSON import): its route reads it line by line
    const problem = inspectBody(req.body);
    if (problem?.kind === "depth")
      return sendEdgeError(req, reply, "MALFORMED_REQUEST", {
        details: `the body nests deeper than ${MAX_JSON_DEPTH} levels`,
      });
    if (problem)
      return sendEdgeError(req, reply, "VALIDATION_FAILED", {
        details: "the body carries a NUL byte or invalid text",
        violations: problem.violations,
      });
  });
});
