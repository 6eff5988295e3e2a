import { domainError } from "@gatehouse/errors";
import type { Caller } from "@gatehouse/proto";
import type { EntrypointDirectory, ResolvedEntrypoint } from "../ports.ts";

/**
 * The caller's entry point (the `From` header), which must belong to the
 * caller's application. An unknown entry point and another application's
 * are the same PERMISSION_DENIED (403): callers learn nothing about other
 * applications' entry points.
 */
export async function entrypointOf(entrypoints: EntrypointDirectory, caller: Caller | undefined): Promise<ResolvedEntrypoint> {
  const id = caller?.entrypointId ?? "";
  const found = id ? await entrypoints(id) : undefined;
  if (!found || found.clientId !== caller?.clientId) {
    throw domainError("PERMISSION_DENIED", "From is not an entry point of this application", { metadata: { entrypoint_id: id } });
  }
  return found;
}
