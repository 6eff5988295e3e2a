import { Agent, request } from "node:http";

/** One request of the closed-loop driver; `path` is relative to the connection's base URL. */
export interface HttpRequest {
  method: "GET" | "POST" | "PATCH";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface HttpResponse {
  status: number;
  body: string;
}

const REQUEST_TIMEOUT_MS = 10_000;

/** A request that got no answer in time (counted apart from other transport errors). */
export class TimeoutError extends Error {}

/**
 * The loopback address connection `index` sends from. Linux routes all of
 * 127.0.0.0/8 to `lo`, so each connection is a distinct client address to the
 * server, like distinct users behind their own addresses (the per-address
 * login throttle counts attempts before the password check, so one shared
 * address would cap the logins in flight).
 */
export function loopbackAddress(index: number): string {
  return `127.0.${1 + Math.floor(index / 250)}.${1 + (index % 250)}`;
}

/** One keep-alive HTTP/1.1 connection (one socket, one request at a time) from its own source address. */
export class HttpConnection {
  readonly baseUrl: URL;
  readonly localAddress: string;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(baseUrl: string, localAddress: string) {
    this.baseUrl = new URL(baseUrl);
    this.localAddress = localAddress;
  }

  send(req: HttpRequest): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { ...req.headers };
      if (req.body !== undefined) headers["content-length"] = Buffer.byteLength(req.body);
      const r = request(
        {
          agent: this.agent,
          host: this.baseUrl.hostname,
          port: this.baseUrl.port,
          localAddress: this.localAddress,
          method: req.method,
          path: req.path,
          headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
          res.on("error", reject);
        },
      );
      r.setTimeout(REQUEST_TIMEOUT_MS, () =>
        r.destroy(new TimeoutError(`${req.method} ${req.path}: no answer in ${REQUEST_TIMEOUT_MS} ms`)),
      );
      r.on("error", reject);
      r.end(req.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Sends on a connection and parses the JSON answer; throws unless the status is `expected`. */
export async function sendJson<T>(conn: HttpConnection, req: HttpRequest, expected: number): Promise<T> {
  const res = await conn.send(req);
  if (res.status !== expected)
    throw new Error(
      `${req.method} ${req.path} answered ${res.status} (expected ${expected}): ${res.body.slice(0, 500)}`,
    );
  return JSON.parse(res.body) as T;
}
