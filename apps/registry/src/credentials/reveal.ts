import type { AuditContext } from "@gatehouse/admin";
import type { Db } from "@gatehouse/db";
import { domainError, validationError } from "@gatehouse/errors";
import { auditStore } from "../audit/store.ts";
import type { ClientSecrets } from "./secrets.ts";
import { credentialStore } from "./store.ts";

export const REVEAL_ACTION = "client_secret.reveal";
const MAX_REASON_LENGTH = 500;

/**
 * Decrypts an application's secret for an operator. The audit row is written
 * in the same transaction, so no secret leaves without its record.
 */
export async function revealClientSecret(
  db: Db,
  secrets: ClientSecrets,
  input: { clientId: string; reason: string } & Pick<AuditContext, "actor" | "actorEmail"> & { address?: string },
): Promise<string> {
  if (input.reason.length > MAX_REASON_LENGTH) {
    throw validationError([
      { field: "reason", code: "too_long", description: `at most ${MAX_REASON_LENGTH} characters` },
    ]);
  }
  return db.tx(async (q) => {
    const client = await credentialStore(q).find(input.clientId);
    if (!client || client.kind !== "application") {
      throw domainError("APPLICATION_NOT_FOUND", undefined, { metadata: { client_id: input.clientId } });
    }
    const secret = secrets.reveal(client.clientId, client.secretSealed);
    await auditStore(q).record({
      actor: input.actor,
      action: REVEAL_ACTION,
      target: client.clientId,
      address: input.address ?? "",
      ...(input.actorEmail ? { actorEmail: input.actorEmail } : {}),
      details: input.reason ? { reason: input.reason } : {},
    });
    return secret;
  });
}
