import { Code, ConnectError } from "@connectrpc/connect";
import type { Locale } from "@gatehouse/errors";
import { CatalogKind, type Entrypoint, type LegalAssertion } from "@gatehouse/proto";
import { localized } from "../../http/terms.ts";
import type { Formats } from "../kit/form-model.ts";
import type { HostedLoginDeps } from "./deps.ts";

const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/** A small TTL cache of the registry's answers (the hosted pages read them on every page). */
function cached<K, V>(load: (key: K) => Promise<V>) {
  const entries = new Map<K, { value: V; until: number }>();
  return async (key: K): Promise<V> => {
    const hit = entries.get(key);
    if (hit && hit.until > Date.now()) return hit.value;
    const value = await load(key);
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(key, { value, until: Date.now() + TTL_MS });
    return value;
  };
}

/**
 * What the hosted pages need from the registry, each kept 30 s per gateway
 * (like the applications of /oauth2/authorize): the entry point with its
 * fieldConfig and flags, the data-field catalog's formats (input types), and
 * the legal assertions of the entry point's typologies. One per hosted
 * login (its cache is shared by every page).
 */
export function hostedDirectory(deps: Pick<HostedLoginDeps, "registry" | "assertions">) {
  // The entry point with its application's bot check (section 17: captcha "altcha" on registration and code requests).
  const resolved = cached(async (id: string): Promise<{ ep?: Entrypoint; captcha: boolean } | undefined> => {
    try {
      const res = await deps.registry.getEntrypoint({ entrypointId: id });
      return { ep: res.entrypoint, captcha: res.captcha === "altcha" };
    } catch (err) {
      if (ConnectError.from(err).code === Code.NotFound) return undefined;
      throw err;
    }
  });
  const formats = cached(async (_: "fields"): Promise<Formats> => {
    const { entries } = await deps.registry.listCatalog({ kind: CatalogKind.DATA_FIELD });
    return new Map(entries.map((e) => [e.key, { format: e.valueType, displayName: e.displayName }]));
  });
  const assertions = cached(async (typologies: string): Promise<LegalAssertion[]> => {
    if (!deps.assertions) return [];
    return (await deps.assertions.listAssertions({ typologies: typologies.split(" ") })).assertions;
  });
  return {
    entrypoint: async (id: string) => (await resolved(id))?.ep,
    /** Whether the entry point's application asks for the ALTCHA check. */
    captcha: async (id: string) => (await resolved(id))?.captcha ?? false,
    formats: () => formats("fields"),
    /** The mandatory legal assertions of the entry point's typologies, with their text in the page's language. */
    async mandatoryAssertions(ep: Entrypoint, lang: Locale): Promise<{ key: string; label: string }[]> {
      const typologies = [
        ...new Set([ep.typology?.register?.id, ep.typology?.work?.id].filter((t): t is string => Boolean(t))),
      ].sort();
      if (!typologies.length) return [];
      return (await assertions(typologies.join(" ")))
        .filter((a) => a.mandatory)
        .map((a) => ({ key: a.key, label: localized(a.displayName, lang) }));
    },
  };
}

export type HostedDirectory = ReturnType<typeof hostedDirectory>;
