import { get as httpGet } from "node:http";
import { get as httpsGet } from "node:https";

import { DRAINING_STATUS } from "@gatehouse/rpc";

const PROBE_TIMEOUT_MS = 2000;

/**
 * Whether a peer service answers `GET <base>/readyz` with 2xx (or says it is
 * draining: a replica behind the balancer). node:http, not
 * fetch: fetch loads undici (~1 MB of source and a WebAssembly parser) into
 * a process that otherwise never needs it (docs/performance.md).
 */
export function peerReady(base: string): Promise<boolean> {
  const get = base.startsWith("https:") ? httpsGet : httpGet;
  return new Promise((resolve) => {
    const req = get(`${base}/readyz`, { timeout: PROBE_TIMEOUT_MS }, (res) => {
      if (res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300) {
        res.resume();
        return resolve(true);
      }
      // A replica draining behind the balancer: the service is there (its other replicas answer the calls).
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d.slice(0, 200)));
      res.on("end", () => resolve(body.includes(`"${DRAINING_STATUS}"`)));
      res.on("error", () => resolve(false));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
  });
}
