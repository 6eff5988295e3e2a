import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import type { Kv } from "@gatehouse/kv";
import {
  CatalogKind,
  PendingAssertionSchema,
  type AssertionsService,
  type LegalAssertion,
  type PendingAssertion,
  type RegistryService,
} from "@gatehouse/proto";
import { concerns, noticeCache, registryChannel } from "@gatehouse/rpc";
import type { AssertionCatalog, DataFieldCatalog, EntrypointDirectory, ResolvedEntrypoint } from "../ports.ts";

// What the users service reads from the registry on every registration and
// login, cached per process. The registry publishes a notice on the shared
// kv when an application's settings or the assertion catalog change, and the
// caches drop what it names at once; the TTL is the fallback for a lost
// notice (pub/sub is fire and forget) and for start:services without Redis.

/** Entry points with their application's settings, by entry point id; dropped when their application changes. */
export async function registryEntrypoints(
  registry: Client<typeof RegistryService>,
  kv: Kv,
  ttlMs = 30_000,
): Promise<EntrypointDirectory> {
  const cache = noticeCache<string, ResolvedEntrypoint | undefined>({ ttlMs });
  await kv.subscribe(registryChannel("application"), (clientId) =>
    cache.drop((_, value) => !value || concerns(clientId, value.clientId)),
  );
  const load = async (id: string): Promise<ResolvedEntrypoint | undefined> => {
    try {
      const res = await registry.getEntrypoint({ entrypointId: id });
      return {
        entrypoint: res.entrypoint!,
        clientId: res.clientId,
        whitelist: res.whitelist,
        defaultCallback: res.defaultCallback,
        mfa: res.mfa,
        captcha: res.captcha,
        smsPerHour: res.smsPerHour,
        phonePrefixes: res.phonePrefixes,
      };
    } catch (err) {
      const code = ConnectError.from(err).code;
      if (code !== Code.NotFound && code !== Code.InvalidArgument) throw err;
      return undefined;
    }
  };
  return (id) => cache.get(id, load);
}

/** The registry's LegalAssertion as the users service holds it (the one mapping of that shape). */
const toPending = (a: LegalAssertion): PendingAssertion =>
  create(PendingAssertionSchema, {
    key: a.key,
    version: a.version,
    displayName: { ...a.displayName },
    type: a.type,
    typology: a.typology,
    property: a.property,
    mandatory: a.mandatory,
  });

/**
 * The legal-assertion catalog (latest versions) by typology set, kept for
 * `ttlMs` (ASSERTIONS_CACHE_TTL) or until the registry publishes a new one.
 */
export async function registryAssertions(
  assertions: Client<typeof AssertionsService>,
  kv: Kv,
  ttlMs = 30_000,
): Promise<AssertionCatalog> {
  const cache = noticeCache<string, PendingAssertion[]>({ ttlMs, maxEntries: 1_000 });
  await kv.subscribe(registryChannel("assertions"), () => cache.drop());
  const load = async (key: string) =>
    (await assertions.listAssertions({ typologies: key.split(",") })).assertions.map(toPending);
  return async (typologies) => {
    // No typology, no assertion (an empty filter would list the whole catalog).
    if (!typologies.length) return [];
    return cache.get([...typologies].sort().join(","), load);
  };
}

/** The data-field catalog's keys, read when asked (only a request with a key outside its entry point asks). */
export function registryDataFields(registry: Client<typeof RegistryService>): DataFieldCatalog {
  return async () => new Set((await registry.listCatalog({ kind: CatalogKind.DATA_FIELD })).entries.map((e) => e.key));
}
