import { ConfigError, loadConfig } from "@gatehouse/config";
import { DataDirLockedError } from "@gatehouse/db";
import { createLogger } from "@gatehouse/logging";
import { createDrain } from "@gatehouse/rpc";
import { ensureConsoleBuilt } from "./console-build.ts";
import { releaseIdleMemory } from "./memory.ts";
import { onShutdown } from "./shutdown.ts";
import { buildStack } from "./stack.ts";
import { startTraces } from "./telemetry.ts";
import { firstStartLine, isFirstStart, listenFailure, readyLine } from "./startup-notes.ts";
import { DatabaseUnusableError } from "./store-drivers.ts";

// npm start: every service in one process; embedded PGlite and in-process
// state with no configuration, PostgreSQL + Redis with DATABASE_URL/REDIS_URL.
try {
  const config = loadConfig();
  const logger = createLogger("gatehouse", config.logLevel);
  const firstStart = isFirstStart(config);
  ensureConsoleBuilt(logger);
  const stopTraces = await startTraces("standalone");
  const drain = createDrain();
  const stack = await buildStack(config, logger, drain);
  await stack.app.listen({ port: config.port, host: config.host }).catch(async (err: unknown) => {
    await stack.close().catch(() => undefined);
    throw err;
  });
  if (firstStart) logger.info({ dataDir: config.dataDir }, firstStartLine(config));
  const ready = readyLine(config, stack.stores);
  logger.info(ready.facts, ready.msg);
  onShutdown(
    logger,
    async () => {
      await stack.close();
      await stopTraces?.();
    },
    drain,
    config.shutdownDelaySeconds,
  );
  releaseIdleMemory();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(`configuration error: ${err.message}`);
    process.exit(2);
  }
  if (err instanceof DataDirLockedError || err instanceof DatabaseUnusableError) {
    console.error(err.message);
    process.exit(1);
  }
  const listen = listenFailure(err);
  if (listen) {
    console.error(listen);
    process.exit(1);
  }
  throw err;
}
