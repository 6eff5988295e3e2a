import { domainError } from "@gatehouse/errors";
import type { Caller } from "@gatehouse/proto";
import type { EntrypointDirectory, ResolvedEntrypoint } from "./ports.ts";

/**
 * The caller's entry point (the `From` header), which must belong to the
 * caller's application. An unknown entry point and another application's
 * are the same PERMISSION_DENIED (403): callers learn nothing about other
 * applications' entry points. The spec's login names it "the name of the
 * entry point", so the entry point's key within the caller's application
 * (`web` for `{client_id}_web`) is accepted as well as its id.
 */
export async function entrypointOf(
  entrypoints: EntrypointDirectory,
  caller: Caller | undefined,
): Promise<ResolvedEntrypoint> {
  const id = caller?.entrypointId ?? "";
  const found = id ? ((await entrypoints(id)) ?? (await byKey(entrypoints, caller?.clientId, id))) : undefined;
  if (!found || found.clientId !== caller?.clientId) {
    throw domainError("PERMISSION_DENIED", "From is not an entry point of this application", {
      metadata: { entrypoint_id: id },
    });
  }
  return found;
}

const ENTRYPOINT_KEY = /^[a-z0-9][a-z0-9_-]{0,31}$/;

function byKey(
  entrypoints: EntrypointDirectory,
  clientId: string | undefined,
  key: string,
): Promise<ResolvedEntrypoint | undefined> {
  return clientId && ENTRYPOINT_KEY.test(key) ? entrypoints(`${clientId}_${key}`) : Promise.resolve(undefined);
}
