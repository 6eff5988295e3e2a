import type { AuditContext } from "@gatehouse/admin";
import type { Db } from "@gatehouse/db";
import { domainError } from "@gatehouse/errors";
import { newEvent } from "@gatehouse/events";
import { auditStore } from "../audit/store.ts";
import { publishEvents } from "../webhooks/events.ts";
import type { ClientSecrets } from "./secrets.ts";
import { credentialStore } from "./store.ts";

export const ROTATE_ACTION = "client_secret.rotate";

/**
 * Replaces an application's secret with a new one from the CSPRNG; the old one
 * fails from the commit on (the caller then tells the auth services' caches).
 * The audit entry is written in the same transaction; it never holds a secret.
 */
export async function rotateClientSecret(
  db: Db,
  secrets: ClientSecrets,
  clientId: string,
  who: AuditContext,
): Promise<{ secret: string; version: number }> {
  return db.tx(async (q) => {
    const store = credentialStore(q);
    const client = await store.findForUpdate(clientId);
    if (!client || client.kind !== "application")
      throw domainError("APPLICATION_NOT_FOUND", undefined, { metadata: { client_id: clientId } });
    const secret = secrets.generate();
    const stored = secrets.protect(clientId, secret);
    const version = await store.rotate(clientId, stored.sealed, stored.mac);
    await auditStore(q).record({
      ...who,
      action: ROTATE_ACTION,
      target: clientId,
      details: { secretVersion: version },
    });
    const data = { application: { client_id: clientId, secret_version: version } };
    await publishEvents(q, [newEvent("application.password_rotated", clientId, data)]);
    return { secret, version };
  });
}
