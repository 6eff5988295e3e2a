import http from "node:http";
import https from "node:https";
import { pinnedLookup, type CheckedAddress, type Resolve } from "@gatehouse/outbound";
import { checkedAddress, TargetRefused, type TargetPolicy } from "./target.ts";

export const DELIVERY_TIMEOUT_MS = 10_000;

/** What one attempt got: an HTTP status, or why there was none. */
export type AttemptResult = { status: number } | { error: string; refused?: boolean };

export interface PostOptions extends TargetPolicy {
  timeoutMs?: number;
  resolve?: Resolve;
}

// Keep-alive per host: a busy endpoint is not a TLS handshake per event. A
// pooled socket was connected to an address checked when it was opened.
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 16 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 16 }),
};

/**
 * POSTs one event: to the checked address only (the lookup hands Node that
 * address and no other), redirects not followed (a 3xx is a failed attempt),
 * the whole exchange bounded by the timeout, the answer's body read and
 * dropped (at most 64 KiB).
 */
export async function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  opts: PostOptions,
): Promise<AttemptResult> {
  const url = new URL(target);
  let pinned: CheckedAddress;
  try {
    pinned = await checkedAddress(url, opts, opts.resolve);
  } catch (err) {
    const refused = err instanceof TargetRefused;
    return { error: refused ? err.message : `DNS: ${(err as Error).message}`, refused };
  }
  const lookup = pinnedLookup([pinned]);
  const timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const client = url.protocol === "https:" ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    const req = client.request(
      url,
      {
        method: "POST",
        agent: agents[url.protocol as "http:" | "https:"],
        lookup,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "Gatehouse-Webhooks/1",
        },
      },
      (res) => {
        let seen = 0;
        res.on("data", (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > 65_536) res.destroy();
        });
        const done = () => resolve({ status: res.statusCode ?? 0 });
        res.on("end", done);
        res.on("close", done);
        res.on("error", done);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on("close", () => clearTimeout(timer));
    req.on("error", (err) => {
      clearTimeout(timer);
      resolve({ error: err.message });
    });
    req.end(body);
  });
}
