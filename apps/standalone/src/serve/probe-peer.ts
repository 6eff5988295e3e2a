import { get as httpGet } from "node:http";
import { get as httpsGet } from "node:https";

const PROBE_TIMEOUT_MS = 2000;

/**
 * Whether a peer service answers `GET <base>/readyz` with 2xx. node:http, not
 * fetch: fetch loads undici (~1 MB of source and a WebAssembly parser) into
 * a process that otherwise never needs it (docs/performance.md).
 */
export function peerReady(base: string): Promise<boolean> {
  const get = base.startsWith("https:") ? httpsGet : httpGet;
  return new Promise((resolve) => {
    const req = get(`${base}/readyz`, { timeout: PROBE_TIMEOUT_MS }, (res) => {
      res.resume();
      resolve(res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
  });
}
