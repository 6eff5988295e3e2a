import autocannon from "autocannon";

/** One HTTP request replayed by every connection. */
export interface LoadRequest {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

export interface LoadSettings {
  seconds: number;
  connections: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMeanMs: number;
  requests: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

/** autocannon in this process (no workers): closed loop, `connections` in flight, no pipelining. */
export async function runLoad(req: LoadRequest, settings: LoadSettings): Promise<LoadResult> {
  const r = await autocannon({
    url: req.url,
    method: req.method,
    headers: req.headers,
    body: req.body,
    connections: settings.connections,
    pipelining: 1,
    duration: settings.seconds,
    timeout: 10,
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = s.count;
  return {
    requestsPerSecond: r.requests.average,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    latencyMeanMs: r.latency.average,
    requests: r.requests.total,
    ok2xx: r["2xx"],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
  };
}

/** Sends the request once and returns the JSON body; throws unless the answer is 2xx. */
export async function sendOnce(req: LoadRequest): Promise<Record<string, unknown>> {
  const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${req.method} ${req.url} answered ${res.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** The protected header and claims of a JWS compact token (not verified: a shape check only). */
export function peekJwt(token: string): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const [h, p] = token.split(".");
  const decode = (s: string | undefined) =>
    JSON.parse(Buffer.from(s ?? "", "base64url").toString("utf8")) as Record<string, unknown>;
  return { header: decode(h), claims: decode(p) };
}
