import type { Queryable } from "@gatehouse/db";
import { domainError } from "@gatehouse/errors";
import type { Application } from "@gatehouse/proto";
import { applicationStore, type EntrypointOfClient } from "./store.ts";

export async function getApplication(q: Queryable, clientId: string): Promise<Application> {
  const app = await applicationStore(q).get(clientId);
  if (!app) throw domainError("APPLICATION_NOT_FOUND", undefined, { metadata: { client_id: clientId } });
  return app;
}

export async function getEntrypoint(q: Queryable, id: string): Promise<EntrypointOfClient> {
  const found = await applicationStore(q).getEntrypoint(id);
  if (!found) throw domainError("ENTRYPOINT_NOT_FOUND", undefined, { metadata: { entrypoint_id: id } });
  return found;
}
