import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { errorEnvelope, pickLocale, type Reason } from "@gatehouse/errors";
import { isOAuthPath, sendEdgeError } from "./respond.ts";

// Errors Node's HTTP parser raises before a request reaches Fastify's router:
// they get the contract's envelope too (RFC 6749 form on /oauth2/*).

type ClientError = Error & { code?: string; rawPacket?: unknown };

function classify(code: string | undefined): { status: number; reason: Reason; details: string } {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return { status: 431, reason: "HEADERS_TOO_LARGE", details: "the request headers exceed 16 KB" };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, reason: "REQUEST_TIMEOUT", details: "the request did not arrive in time" };
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { status: 413, reason: "PAYLOAD_TOO_LARGE", details: "the chunk extensions are too large" };
    case "HPE_INVALID_HEADER_TOKEN":
      return {
        status: 400,
        reason: "MALFORMED_REQUEST",
        details: "a header carries a character HTTP does not allow (a NUL byte, a control character)",
      };
    case "HPE_INVALID_METHOD":
    case "HPE_INVALID_URL":
    case "HPE_INVALID_VERSION":
    case "HPE_INVALID_CONSTANT":
      return { status: 400, reason: "MALFORMED_REQUEST", details: "the request line is malformed" };
    default:
      return { status: 400, reason: "MALFORMED_REQUEST", details: "the request is not valid HTTP" };
  }
}

/** The request target of the first request line in what the parser saw, when it got that far. */
function requestTarget(raw: unknown): string | undefined {
  return Buffer.isBuffer(raw) ? /^[A-Z]+ (\/\S*) /.exec(raw.toString("latin1", 0, 4096))?.[1] : undefined;
}

/** An error answered outside Fastify: the envelope, or RFC 6749's form when the target is under /oauth2/. */
function errorBody(
  url: string | undefined,
  acceptLanguage: string | undefined,
  status: number,
  reason: Reason,
  details: string,
): string {
  const body = isOAuthPath(url)
    ? { error: "invalid_request", error_description: details }
    : errorEnvelope({ reason, locale: pickLocale(acceptLanguage), elapsed: 0, details, status });
  return JSON.stringify(body);
}

function writeAndClose(socket: Socket, status: number, json: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(json)}\r\n` +
      `cache-control: no-store\r\nconnection: close\r\n\r\n${json}`,
  );
}

/**
 * Node's `clientError` (Fastify's clientErrorHandler): 400 for a malformed
 * request line or header, 431 for headers over 16 KB, 408 when the request
 * (headers or body) does not arrive within the request timeout. The
 * connection closes after the answer; nothing is written when a response
 * has already started on it.
 */
export function clientErrorHandler(err: ClientError, socket: Socket): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (!inFlight?.headersSent && socket.writable) {
    const { status, reason, details } = classify(err.code);
    const url = inFlight?.req?.url ?? requestTarget(err.rawPacket);
    writeAndClose(socket, status, errorBody(url, inFlight?.req?.headers["accept-language"], status, reason, details));
  }
  socket.destroy(err);
}

/**
 * What Node answers by itself with an empty body otherwise: an `Expect` other
 * than 100-continue (417) and CONNECT (no proxy here: 400). A missing Host is
 * refused by the edge's onRequest hook (`requireHostHeader: false`).
 */
export function serverEdgeEvents(server: Server): void {
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    const json = errorBody(
      req.url,
      req.headers["accept-language"],
      417,
      "EXPECTATION_FAILED",
      `Expect: ${String(req.headers.expect).slice(0, 100)} cannot be met (only 100-continue)`,
    );
    const headers = {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(json),
      "cache-control": "no-store",
      connection: "close",
    };
    res.writeHead(417, headers).end(json);
  });
  server.on("connect", (req: IncomingMessage, socket: Socket) => {
    writeAndClose(
      socket,
      400,
      errorBody(
        undefined,
        req.headers["accept-language"],
        400,
        "MALFORMED_REQUEST",
        "CONNECT is not served here (not a proxy)",
      ),
    );
  });
}

/** Fastify's frameworkErrors: a URL its router cannot decode (`%zz`, `%FF`) is a 400 in the envelope too. */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const details = err.code === "FST_ERR_BAD_URL" ? "the URL is not valid percent-encoded UTF-8" : err.message;
  return sendEdgeError(req, reply, "MALFORMED_REQUEST", { details });
}
