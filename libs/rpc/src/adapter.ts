import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { fromBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createConnectRouter, type Interceptor } from "@connectrpc/connect";
import {
  compressionBrotli,
  compressionGzip,
  universalRequestFromNodeRequest,
  universalResponseToNodeResponse,
} from "@connectrpc/connect-node";
import type { Routes } from "./transports.ts";

type NodeReq = IncomingMessage | Http2ServerRequest;
type NodeRes = ServerResponse | Http2ServerResponse;

/**
 * connectNodeAdapter, plus one rule: a Connect unary call whose binary body is
 * not a valid message is the caller's error (invalid_argument, HTTP 400), where
 * connect-es answers internal (500). Other protocols keep connect-es's codes
 * (gRPC reports undecodable frames as INTERNAL, as grpc-go does).
 */
export function rpcRequestHandler(opts: {
  routes: Routes;
  interceptors: Interceptor[];
  readMaxBytes: number;
  fallback: (req: NodeReq, res: NodeRes) => void;
}) {
  const router = createConnectRouter({
    interceptors: opts.interceptors,
    readMaxBytes: opts.readMaxBytes,
    acceptCompression: [compressionGzip, compressionBrotli],
  });
  opts.routes(router);
  const handlers = new Map(router.handlers.map((h) => [h.requestPath, h]));

  return (req: NodeReq, res: NodeRes) => {
    const handler = handlers.get((req.url ?? "").split("?", 2)[0] ?? "");
    if (!handler) return opts.fallback(req, res);
    const plainBinaryUnary =
      req.method === "POST" &&
      req.headers["content-type"] === "application/proto" &&
      !req.headers["content-encoding"] &&
      handler.method.methodKind === "unary";
    void (async () => {
      let uReq = universalRequestFromNodeRequest(req as IncomingMessage, res as ServerResponse, undefined, undefined);
      if (plainBinaryUnary && uReq.body && Symbol.asyncIterator in (uReq.body as object)) {
        const chunks: Uint8Array[] = [];
        let size = 0;
        for await (const c of uReq.body as AsyncIterable<Uint8Array>) {
          size += c.byteLength;
          if (size > opts.readMaxBytes) break;
          chunks.push(c);
        }
        const bytes = Buffer.concat(chunks);
        let valid = size <= opts.readMaxBytes;
        try {
          if (valid) fromBinary(handler.method.input, bytes);
        } catch {
          valid = false;
        }
        if (!valid) {
          (res as ServerResponse).writeHead(size > opts.readMaxBytes ? 413 : 400, {
            "content-type": "application/json",
          });
          res.end(
            JSON.stringify({
              code: size > opts.readMaxBytes ? "resource_exhausted" : "invalid_argument",
              message: "malformed request message",
            }),
          );
          return;
        }
        uReq = {
          ...uReq,
          body: (async function* () {
            yield bytes;
          })(),
        };
      }
      const uRes = await handler(uReq);
      await universalResponseToNodeResponse(uRes, res as ServerResponse);
    })().catch((reason: unknown) => {
      if (ConnectError.from(reason).code === Code.Aborted) return;
      if (!res.headersSent) {
        (res as ServerResponse).writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ code: "internal", message: "internal error" }));
      }
    });
  };
}
