import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** One request the receiver got, verified with the standardwebhooks library. */
export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: { id: string; type: string; time: string; application: string | null; data: Record<string, any> };
  raw: string;
  /** Which of the receiver's secrets verified it (-1: none). */
  verifiedWith: number;
  status: number;
}

/**
 * A webhook receiver on a loopback port: every request is verified with
 * `new Webhook(secret).verify(body, headers)` for each secret it knows, and
 * answered by `answer` (200 by default).
 */
export async function startReceiver(answer: (r: Omit<Received, "status">) => number = () => 200) {
  const got: Received[] = [];
  const secrets: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const h = req.headers as IncomingHttpHeaders & Record<string, string>;
      const verifiedWith = secrets.findIndex((secret) => {
        try {
          new Webhook(secret).verify(raw, h);
          return true;
        } catch {
          return false;
        }
      });
      const base = {
        id: h["webhook-id"] ?? "",
        timestamp: h["webhook-timestamp"] ?? "",
        signature: h["webhook-signature"] ?? "",
        body: JSON.parse(raw) as Received["body"],
        raw,
        verifiedWith,
      };
      const status = answer(base);
      got.push({ ...base, status });
      res.writeHead(status, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    got,
    secrets,
    /** Waits until `pred` holds of what arrived. */
    async until(pred: (got: Received[]) => boolean, what: string, timeoutMs = 20_000): Promise<void> {
      const end = Date.now() + timeoutMs;
      while (!pred(got)) {
        if (Date.now() > end)
          throw new Error(
            `webhook receiver: timed out waiting for ${what}; got ${got.map((g) => g.body.type).join(", ")}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
