import type { Client } from "@connectrpc/connect";
import type { Logger } from "@gatehouse/logging";
import type { RegistryService } from "@gatehouse/proto";

/** Creates (idempotently) the operator client named by the environment or the CLI. */
export async function bootstrapOperator(
  registry: Client<typeof RegistryService>,
  op: { clientId: string; clientSecret?: string },
  logger: Logger,
): Promise<{ clientId: string; clientSecret: string; created: boolean }> {
  const res = await registry.ensureOperatorClient({
    clientId: op.clientId,
    clientSecret: op.clientSecret ?? "",
    displayName: "Operator",
  });
  logger.info({ clientId: res.clientId, created: res.created }, "operator client ensured");
  return { clientId: res.clientId, clientSecret: res.clientSecret, created: res.created };
}
