import { createServer as createHttp1Server, type IncomingMessage } from "node:http";
import { createServer as createHttp2Server, type Http2ServerRequest } from "node:http2";
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from "node:net";
import { Duplex } from "node:stream";
import type { Interceptor } from "@connectrpc/connect";
import type { Logger } from "@gatehouse/logging";
import { rpcRequestHandler } from "./adapter.ts";
import { metricsRegistry } from "./metrics.ts";
import type { Routes } from "./transports.ts";

type Req = IncomingMessage | Http2ServerRequest;
// Connect's fallback hands a response that is either kind; only writeHead/end are used.
type Res = { writeHead(status: number, headers: Record<string, string>): unknown; end(body: string): unknown };

export interface ServeOptions {
  name: string;
  host: string;
  port: number;
  routes: Routes;
  interceptors: Interceptor[];
  /** Whether the service's stores answer (for /readyz). */
  ready: () => Promise<boolean>;
  logger: Logger;
  /** Largest RPC message accepted, in bytes. */
  readMaxBytes?: number;
}

export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

/** /healthz, /readyz and /metrics: the same three on every process. */
export async function probeHandler(req: Req, res: Res, ready: () => Promise<boolean>): Promise<boolean> {
  const path = (req.url ?? "").split("?")[0];
  if (req.method !== "GET") return false;
  if (path === "/healthz") {
    send(res, 200, "application/json", JSON.stringify({ status: "ok" }));
  } else if (path === "/readyz") {
    const ok = await ready().catch(() => false);
    send(
      res,
      ok ? 200 : 503,
      "application/json",
      JSON.stringify({ status: ok ? "ready" : "unavailable" }),
      ok ? {} : { "retry-after": "1" },
    );
  } else if (path === "/metrics") {
    send(res, 200, metricsRegistry.contentType, await metricsRegistry.metrics());
  } else return false;
  return true;
}

function send(res: Res, status: number, type: string, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store", ...headers });
  res.end(body);
}

function isHttp2Preface(first: Buffer, preface: Buffer): boolean {
  const n = Math.min(first.length, preface.length);
  return n > 0 && first.subarray(0, n).equals(preface.subarray(0, n));
}

/** A duplex over `socket` whose readable side starts with `head` (bytes already consumed). */
function replaying(socket: Socket, head: Buffer): Duplex {
  const stream = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk, _enc, cb) {
      socket.write(chunk, cb);
    },
    final(cb) {
      socket.end();
      cb();
    },
    destroy(err, cb) {
      socket.destroy(err ?? undefined);
      cb(err);
    },
  });
  stream.push(head);
  socket.on("data", (d) => {
    if (!stream.push(d)) socket.pause();
  });
  socket.on("end", () => stream.push(null));
  socket.on("error", (err) => stream.destroy(err));
  socket.on("close", () => stream.destroy());
  return stream;
}

/**
 * Serves Connect, gRPC and gRPC-web on one port: HTTP/2 cleartext for RPC
 * clients and HTTP/1.1 for the Connect protocol and the kubelet's probes. The
 * first bytes of each connection (the HTTP/2 preface) choose the server.
 */
export async function serveService(opts: ServeOptions): Promise<RunningServer> {
  const handler = rpcRequestHandler({
    routes: opts.routes,
    interceptors: opts.interceptors,
    readMaxBytes: opts.readMaxBytes ?? 1024 * 1024,
    fallback(req, res) {
      probeHandler(req, res, opts.ready)
        .then((handled) => {
          if (!handled) send(res, 404, "application/json", JSON.stringify({ error: "not_found" }));
        })
        .catch(() => send(res, 500, "application/json", JSON.stringify({ error: "internal" })));
    },
  });
  const h1 = createHttp1Server(handler);
  const h2 = createHttp2Server(handler);
  const preface = Buffer.from("PRI * HTTP/2.0");
  const sockets = new Set<Socket>();
  const server: Server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.once("data", (first) => {
      socket.pause();
      if (isHttp2Preface(first, preface)) {
        // The HTTP/2 session reads from a stream, so hand it one that replays the bytes already read.
        h2.emit("connection", replaying(socket, first));
      } else {
        socket.unshift(first);
        h1.emit("connection", socket);
        socket.resume();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  opts.logger.info({ port }, `${opts.name} serving Connect/gRPC/gRPC-web`);
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        h2.close();
        h1.closeAllConnections();
        for (const s of sockets) s.destroy();
      }),
  };
}
