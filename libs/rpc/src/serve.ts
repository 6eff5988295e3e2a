import { createServer as createHttp1Server, type IncomingMessage } from "node:http";
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2Session } from "node:http2";
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from "node:net";
import { Duplex } from "node:stream";
import type { Interceptor } from "@connectrpc/connect";
import type { Logger } from "@gatehouse/logging";
import { rpcRequestHandler } from "./adapter.ts";
import { DRAIN_GRACE_MS, DRAINING_STATUS, type Drain } from "./drain.ts";
import { metricsRegistry } from "./metrics.ts";
import { traceServerInterceptor } from "./tracing.ts";
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
  /** The process's drain: /readyz 503 and `connection: close` once it started. */
  drain?: Drain;
}

export interface RunningServer {
  port: number;
  /**
   * Stops accepting, ends HTTP/2 sessions with GOAWAY and idle HTTP/1.1
   * connections, lets calls in flight finish (up to `graceMs`), then cuts
   * what is left.
   */
  close(graceMs?: number): Promise<void>;
}

/** /healthz, /readyz and /metrics: the same three on every process. */
export async function probeHandler(req: Req, res: Res, ready: () => Promise<boolean>, drain?: Drain): Promise<boolean> {
  const path = (req.url ?? "").split("?")[0];
  if (req.method !== "GET") return false;
  if (path === "/healthz") {
    send(res, 200, "application/json", JSON.stringify({ status: "ok" }));
  } else if (path === "/readyz") {
    const ok = !drain?.draining && (await ready().catch(() => false));
    const status = ok ? "ready" : drain?.draining ? DRAINING_STATUS : "unavailable";
    send(res, ok ? 200 : 503, "application/json", JSON.stringify({ status }), ok ? {} : { "retry-after": "1" });
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
    interceptors: [traceServerInterceptor(), ...opts.interceptors],
    readMaxBytes: opts.readMaxBytes ?? 1024 * 1024,
    fallback(req, res) {
      probeHandler(req, res, opts.ready, opts.drain)
        .then((handled) => {
          if (!handled) send(res, 404, "application/json", JSON.stringify({ error: "not_found" }));
        })
        .catch(() => send(res, 500, "application/json", JSON.stringify({ error: "internal" })));
    },
  });
  // HTTP/1.1 connections with their requests in flight (Node tracks none: h1 is handed connections, it does not listen).
  const h1Busy = new Map<Socket, number>();
  let closing = false;
  const h1 = createHttp1Server((req, res) => {
    // Draining: each answer closes its connection, so the client's next call opens one to another replica.
    if (opts.drain?.draining || closing) res.setHeader("connection", "close");
    const socket = req.socket;
    h1Busy.set(socket, (h1Busy.get(socket) ?? 0) + 1);
    res.once("close", () => {
      const left = (h1Busy.get(socket) ?? 1) - 1;
      h1Busy.set(socket, left);
      if (closing && left === 0) socket.end();
    });
    handler(req, res);
  });
  const h2 = createHttp2Server(handler);
  const sessions = new Set<Http2Session>();
  h2.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  const preface = Buffer.from("PRI * HTTP/2.0");
  const sockets = new Set<Socket>();
  // Connections that sent nothing yet: nothing of theirs is in flight.
  const unread = new Set<Socket>();
  const server: Server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => {
      sockets.delete(socket);
      unread.delete(socket);
    });
    unread.add(socket);
    socket.once("data", (first) => {
      unread.delete(socket);
      socket.pause();
      if (isHttp2Preface(first, preface)) {
        // The HTTP/2 session reads from a stream, so hand it one that replays the bytes already read.
        h2.emit("connection", replaying(socket, first));
      } else {
        socket.unshift(first);
        h1Busy.set(socket, 0);
        socket.once("close", () => h1Busy.delete(socket));
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
    close: async (graceMs = DRAIN_GRACE_MS) => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // GOAWAY: streams already open finish, new ones go to a new connection (another replica behind a balancer).
      for (const session of sessions) session.close();
      // HTTP/1.1: idle connections end now, busy ones after their answer.
      closing = true;
      for (const [socket, busy] of h1Busy) if (busy === 0) socket.end();
      for (const socket of unread) socket.destroy();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([closed, late]);
      clearTimeout(timer);
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
