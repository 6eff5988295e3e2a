import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local Have I Been Pwned range API (`GET /range/{5 hex}` answers
 * `SUFFIX:COUNT` lines) that knows `breached` and records every path it was
 * asked, so tests can check that only 5 hex characters left.
 */
export async function rangeApi(breached: string[]): Promise<{ url: string; asked: string[]; close(): Promise<void> }> {
  const sha1 = (s: string) => createHash("sha1").update(s.normalize("NFKC")).digest("hex").toUpperCase();
  const hashes = breached.map(sha1);
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? "");
    const prefix = (req.url ?? "").split("/").pop()!.toUpperCase();
    const lines = hashes.filter((h) => h.startsWith(prefix)).map((h) => `${h.slice(5)}:42`);
    res.writeHead(200, { "content-type": "text/plain" }).end([...lines, "0".repeat(35) + ":0"].join("\r\n"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
