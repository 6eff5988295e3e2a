import { parseArgs } from "node:util";
import { createClient } from "@connectrpc/connect";
import { ConfigError, loadConfig } from "@gatehouse/config";
import { authMigrations, rotateSigningKeysNow } from "@gatehouse/auth";
import { createLogger } from "@gatehouse/logging";
import { RegistryService } from "@gatehouse/proto";
import { createRegistry } from "@gatehouse/registry";
import { callerInterceptors, inProcessTransport, InternalTokens } from "@gatehouse/rpc";
import { bootstrapOperator } from "./bootstrap.ts";
import { serveOne, SERVICES, type ServiceName } from "./serve/index.ts";
import { closeStores, migrateAll, openStores } from "./stores.ts";
import { serverInterceptors } from "./wiring.ts";

const usage = `usage: gatehouse <command>
  serve <gateway|registry|auth|users|confirmation-worker>
                                         run one service as its own process
  migrate                                apply every service's pending migrations
  bootstrap-operator [--client-id ID] [--client-secret SECRET]
                                         create or update an operator client and print its credentials
  rotate-signing-keys                    the next signing key (SIGNING_ALG) starts signing; the old ones verify
                                         until their tokens expire; running servers follow within a minute`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  const logger = createLogger("gatehouse", config.logLevel);
  switch (command) {
    case "serve": {
      const name = rest[0] as ServiceName;
      if (!SERVICES.includes(name)) break;
      await serveOne(name, config, createLogger(name, config.logLevel));
      return -1; // keep running
    }
    case "migrate": {
      const stores = await openStores(config);
      const applied = await migrateAll(stores.db);
      await closeStores(stores);
      console.log(JSON.stringify({ applied }));
      return 0;
    }
    case "rotate-signing-keys": {
      const stores = await openStores(config);
      try {
        await migrateAll(stores.db, [authMigrations]);
        const rotation = await rotateSigningKeysNow(stores.db, stores.keys, config);
        console.log(JSON.stringify({ alg: config.signingAlg, ...rotation }));
      } finally {
        await closeStores(stores);
      }
      return 0;
    }
    case "bootstrap-operator": {
      const { values } = parseArgs({
        args: rest,
        options: { "client-id": { type: "string", default: "operator" }, "client-secret": { type: "string" } },
      });
      // Talks to the registry's domain directly through its RPC handlers (in-process, authenticated).
      const stores = await openStores(config);
      await migrateAll(stores.db);
      const internal = new InternalTokens(stores.keys);
      const mod = await createRegistry({ db: stores.db, keys: stores.keys, logger });
      const client = createClient(
        RegistryService,
        inProcessTransport(mod.routes, serverInterceptors(mod, logger, internal), callerInterceptors(internal, "cli")),
      );
      const op = await bootstrapOperator(client, { clientId: values["client-id"]!, clientSecret: values["client-secret"] }, logger);
      await mod.close();
      await closeStores(stores);
      console.log(JSON.stringify({ client_id: op.clientId, client_secret: op.clientSecret, created: op.created }));
      return 0;
    }
  }
  console.error(usage);
  return 2;
}

try {
  const code = await main(process.argv.slice(2));
  if (code >= 0) process.exit(code);
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(`configuration error: ${err.message}`);
    process.exit(2);
  }
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
