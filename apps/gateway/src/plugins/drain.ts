import fp from "fastify-plugin";
import type { Drain } from "@gatehouse/rpc";

/**
 * SIGTERM (contract section 16): while the process drains, every answer
 * closes its keep-alive connection (`connection: close`), so a client's next
 * request opens a connection the balancer gives to another replica; nothing
 * is refused (Fastify's 503 on closing is off).
 */
export const drainConnections = fp<{ drain?: Drain }>(async (app, opts) => {
  const drain = opts.drain;
  if (!drain) return;
  app.addHook("onSend", async (_req, reply) => {
    if (drain.draining) reply.header("connection", "close");
  });
});
