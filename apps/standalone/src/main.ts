import { ConfigError, loadConfig } from "@gatehouse/config";
import { DataDirLockedError } from "@gatehouse/db";
import { createLogger } from "@gatehouse/logging";
import { onShutdown } from "./shutdown.ts";
import { buildStack } from "./stack.ts";

// npm start: every service in one process; embedded PGlite and in-process
// state with no configuration, PostgreSQL + Redis with DATABASE_URL/REDIS_URL.
try {
  const config = loadConfig();
  const logger = createLogger("gatehouse", config.logLevel);
  const stack = await buildStack(config, logger);
  await stack.app.listen({ port: config.port, host: config.host });
  logger.info(
    { url: config.publicBaseUrl, database: stack.stores.db.kind, state: stack.stores.kv.kind },
    `Gatehouse listening on ${config.host}:${config.port} (docs at ${config.publicBaseUrl}/docs)`,
  );
  onShutdown(logger, () => stack.close());
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(`configuration error: ${err.message}`);
    process.exit(2);
  }
  if (err instanceof DataDirLockedError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
