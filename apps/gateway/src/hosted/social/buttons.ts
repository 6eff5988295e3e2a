import type { Entrypoint } from "@gatehouse/proto";
import type { HostedView } from "../journey/view.ts";
import { SOCIAL_TEXTS } from "./texts.ts";

/** One submit per provider the entry point offers: `name="idp"`, `value` its key (contract section 11). */
export interface ProviderButtons {
  or: string;
  buttons: { key: string; label: string }[];
}

const TTL_MS = 30_000;
let names: { value: Map<string, string>; until: number; of: unknown } | undefined;

/** The providers' display names, kept 30 s per gateway (one list: providers are few). */
async function displayNames(v: HostedView): Promise<Map<string, string>> {
  const client = v.h.deps.identityProviders;
  if (!client) return new Map();
  if (names && names.of === client && names.until > Date.now()) return names.value;
  const { providers } = await client.listIdentityProviders({});
  const value = new Map(providers.map((p) => [p.key, p.displayName]));
  names = { value, until: Date.now() + TTL_MS, of: client };
  return value;
}

/** The buttons of the entry point's providers, in its order; undefined when it offers none. */
export async function providerButtons(v: HostedView, ep: Entrypoint): Promise<ProviderButtons | undefined> {
  if (!ep.identityProviders.length) return undefined;
  const known = await displayNames(v);
  const t = SOCIAL_TEXTS[v.lang];
  const buttons = ep.identityProviders
    .filter((key) => known.has(key))
    .map((key) => ({ key, label: t.continueWith(known.get(key)!) }));
  return buttons.length ? { or: t.or, buttons } : undefined;
}
