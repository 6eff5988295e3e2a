import type { Entrypoint } from "@gatehouse/proto";

/** The latest version of a legal assertion of the registry's catalog. */
export interface CatalogAssertion {
  key: string;
  version: string;
  /** Text shown to the user by language ("en" always present). */
  displayName: Record<string, string>;
  type: string;
  typology: string;
  property: string;
  mandatory: boolean;
}

/** The registry's ListAssertions: the latest versions of the assertions of these typologies. */
export type AssertionCatalog = (typologies: string[]) => Promise<CatalogAssertion[]>;

/** An empty catalog: a users service wired without the registry knows no assertion. */
export const noAssertions: AssertionCatalog = async () => [];

/** The typologies an entry point's users belong to: its register and work typologies. */
export function typologiesOf(ep: Entrypoint): string[] {
  const ids = [ep.typology?.register?.id, ep.typology?.work?.id].filter((t): t is string => Boolean(t));
  return [...new Set(ids)].sort();
}

/** The catalog of an entry point by key. */
export async function catalogFor(catalog: AssertionCatalog, ep: Entrypoint): Promise<Map<string, CatalogAssertion>> {
  return new Map((await catalog(typologiesOf(ep))).map((a) => [a.key, a]));
}
