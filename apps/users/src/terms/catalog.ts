import type { Entrypoint, PendingAssertion } from "@gatehouse/proto";
import type { AssertionCatalog } from "../ports.ts";

/** An empty catalog: a users service wired without the registry knows no assertion. */
export const noAssertions: AssertionCatalog = async () => [];

/** The typologies an entry point's users belong to: its register and work typologies. */
export function typologiesOf(ep: Entrypoint): string[] {
  const ids = [ep.typology?.register?.id, ep.typology?.work?.id].filter((t): t is string => Boolean(t));
  return [...new Set(ids)].sort();
}

/** The catalog of an entry point by key. */
export async function catalogFor(catalog: AssertionCatalog, ep: Entrypoint): Promise<Map<string, PendingAssertion>> {
  return new Map((await catalog(typologiesOf(ep))).map((a) => [a.key, a]));
}
