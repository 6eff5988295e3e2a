import type { Entrypoint } from "@gatehouse/proto";
import type { HostedView } from "../journey/view.ts";
import { SOCIAL_TEXTS } from "./texts.ts";

/** One submit per provider the entry point offers: `name="idp"`, `value` its key (contract section 11). */
export interface ProviderButtons {
  or: string;
  buttons: { key: string; label: string }[];
}

/** The buttons of the entry point's providers, in its order; undefined when it offers none. */
export async function providerButtons(v: HostedView, ep: Entrypoint): Promise<ProviderButtons | undefined> {
  if (!ep.identityProviders.length) return undefined;
  const known = await v.h.directory.providerNames();
  const t = SOCIAL_TEXTS[v.lang];
  const buttons = ep.identityProviders
    .filter((key) => known.has(key))
    .map((key) => ({ key, label: t.continueWith(known.get(key)!) }));
  return buttons.length ? { or: t.or, buttons } : undefined;
}
