import { Code, ConnectError } from "@connectrpc/connect";
import type { Locale } from "@gatehouse/errors";
import { CatalogKind, type Entrypoint, type LegalAssertion } from "@gatehouse/proto";
import { concerns, noticeCache, type RegistryNotices } from "@gatehouse/rpc";
import { localized } from "../../http/terms.ts";
import type { Formats } from "../kit/form-model.ts";
import type { HostedLoginDeps } from "./deps.ts";

// The fallback for a lost notice (pub/sub is fire and forget), and the only bound without Redis in start:services.
const TTL_MS = 30_000;

/**
 * What the hosted pages need from the registry, kept per gateway until the
 * registry's notice of a change reaches every replica (or 30 s): the entry
 * point with its fieldConfig and flags (notice: its application), the
 * data-field catalog's formats (notice: catalog), and the legal assertions
 * of the entry point's typologies (notice: assertions), and the upstream
 * identity providers' display names (notice: identity-provider). One per
 * hosted login (its cache is shared by every page).
 */
export function hostedDirectory(deps: Pick<HostedLoginDeps, "registry" | "assertions" | "identityProviders">) {
  // The entry point with its application's bot check (section 17: captcha "altcha" on registration and code requests).
  const entrypoints = noticeCache<string, { entrypoint?: Entrypoint; clientId?: string; captcha?: boolean }>({
    ttlMs: TTL_MS,
  });
  const formats = noticeCache<"fields", Formats>({ ttlMs: TTL_MS });
  const assertions = noticeCache<string, LegalAssertion[]>({ ttlMs: TTL_MS });
  const providerNames = noticeCache<"all", Map<string, string>>({ ttlMs: TTL_MS });
  const loadProviderNames = async () =>
    new Map(
      (await deps.identityProviders!.listIdentityProviders({})).providers.map((p) => [p.key, p.displayName] as const),
    );

  const loadEntrypoint = async (id: string) => {
    try {
      const res = await deps.registry.getEntrypoint({ entrypointId: id });
      return { entrypoint: res.entrypoint, clientId: res.clientId, captcha: res.captcha === "altcha" };
    } catch (err) {
      if (ConnectError.from(err).code === Code.NotFound) return {};
      throw err;
    }
  };
  const loadFormats = async (): Promise<Formats> => {
    const { entries } = await deps.registry.listCatalog({ kind: CatalogKind.DATA_FIELD });
    return new Map(entries.map((e) => [e.key, { format: e.valueType, displayName: e.displayName }]));
  };
  const loadAssertions = async (typologies: string): Promise<LegalAssertion[]> => {
    if (!deps.assertions) return [];
    return (await deps.assertions.listAssertions({ typologies: typologies.split(" ") })).assertions;
  };

  return {
    entrypoint: async (id: string) => (await entrypoints.get(id, loadEntrypoint)).entrypoint,
    /** Whether the entry point's application asks for the ALTCHA check. */
    captcha: async (id: string) => (await entrypoints.get(id, loadEntrypoint)).captcha ?? false,
    formats: () => formats.get("fields", loadFormats),
    /** The mandatory legal assertions of the entry point's typologies, with their text in the page's language. */
    async mandatoryAssertions(ep: Entrypoint, lang: Locale): Promise<{ key: string; label: string }[]> {
      const typologies = [
        ...new Set([ep.typology?.register?.id, ep.typology?.work?.id].filter((t): t is string => Boolean(t))),
      ].sort();
      if (!typologies.length) return [];
      return (await assertions.get(typologies.join(" "), loadAssertions))
        .filter((a) => a.mandatory)
        .map((a) => ({ key: a.key, label: localized(a.displayName, lang) }));
    },
    /** The identity providers' display names by key (section 11's buttons); none without the registry's client. */
    async providerNames(): Promise<Map<string, string>> {
      if (!deps.identityProviders) return new Map();
      return providerNames.get("all", loadProviderNames);
    },
    /** Hears the registry's notices (every replica does); resolves to the unsubscribe. */
    async listen(notices: RegistryNotices): Promise<() => Promise<void>> {
      const offs = await Promise.all([
        // An unknown entry point may be created by any application: dropped with every change.
        notices("application", (clientId) => entrypoints.drop((_, v) => !v.clientId || concerns(clientId, v.clientId))),
        notices("catalog", () => formats.drop()),
        notices("assertions", () => assertions.drop()),
        notices("identity-provider", () => providerNames.drop()),
      ]);
      return async () => void (await Promise.all(offs.map((off) => off())));
    },
  };
}

export type HostedDirectory = ReturnType<typeof hostedDirectory>;
