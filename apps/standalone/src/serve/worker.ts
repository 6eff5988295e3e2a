import { createServer } from "node:http";
import { createClient } from "@connectrpc/connect";
import { ConfigError, type Config } from "@gatehouse/config";
import { openKv } from "@gatehouse/kv";
import type { Logger } from "@gatehouse/logging";
import { ConfirmationDeliveryService } from "@gatehouse/proto";
import { callerInterceptors, httpTransport, InternalTokens, probeHandler, type Drain } from "@gatehouse/rpc";
import { loadKeyRing } from "@gatehouse/secrets";
import { wireWorker } from "../worker-wiring.ts";

/**
 * The confirmation worker as its own process: a BullMQ consumer that asks the
 * users service (CheckDelivery over HTTP) before each send and reads no
 * database. It has no RPC API; its port serves only /healthz, /readyz and /metrics.
 */
export async function serveConfirmationWorker(
  config: Config,
  logger: Logger,
  drain: Drain,
): Promise<() => Promise<void>> {
  if (!config.redisUrl) {
    throw new ConfigError(
      "serve confirmation-worker needs REDIS_URL (the shared BullMQ queue); without it the users process delivers itself",
    );
  }
  const keys = await loadKeyRing(config.secretKey, config.dataDir);
  const internal = new InternalTokens(keys);
  const deliveries = createClient(
    ConfirmationDeliveryService,
    httpTransport(config.serviceUrls.users, callerInterceptors(internal, "confirmation-worker")),
  );
  const worker = await wireWorker({ config, keys, logger, deliveries });
  // Readiness: Redis answers (the worker's own connection only reports its first connect).
  const kv = openKv({
    redisUrl: config.redisUrl,
    prefix: config.redisPrefix,
    commandTimeoutMs: config.redisCommandTimeoutMs,
  });
  const ready = async () => (await kv.ping()) && (await worker.ready());
  const server = createServer((req, res) => {
    probeHandler(req, res, ready, drain)
      .then((handled) => {
        if (!handled)
          res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "not_found" }));
      })
      .catch(() =>
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: "internal" })),
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.servicePorts.worker, config.host, () => resolve());
  });
  logger.info(
    { port: config.servicePorts.worker },
    "confirmation-worker consuming deliveries; probes and metrics on this port",
  );
  return async () => {
    await worker.close(); // active deliveries finish first; waiting ones stay queued for another worker
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await kv.close();
  };
}
