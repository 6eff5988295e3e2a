import { randomDigits } from "@gatehouse/secrets";

// client_id: "{random numeric id}" or "{random numeric id}_{key}";
// entry point id: "{client_id}_{key}" or "{client_id}_{index}" (contract section 3).

export const RANDOM_ID_DIGITS = 12;

export function newClientId(key: string): string {
  const id = randomDigits(RANDOM_ID_DIGITS);
  return key ? `${id}_${key}` : id;
}

/** What follows "{client_id}_" in an entry point id: its key, else its position. */
export function entrypointSuffix(ep: { key: string }, index: number): string {
  return ep.key || String(index);
}

export function entrypointId(clientId: string, ep: { key: string }, index: number): string {
  return `${clientId}_${entrypointSuffix(ep, index)}`;
}

/**
 * Positions of entry points whose key gives an id another entry point already
 * has (a repeated key, or a key equal to another entry point's index). The
 * keyed one is reported: its key is what the caller can change.
 */
export function entrypointIdCollisions(eps: readonly { key: string }[]): number[] {
  const firstBySuffix = new Map<string, number>();
  const clashing = new Set<number>();
  eps.forEach((ep, i) => {
    const suffix = entrypointSuffix(ep, i);
    const earlier = firstBySuffix.get(suffix);
    if (earlier === undefined) firstBySuffix.set(suffix, i);
    else clashing.add(ep.key ? i : earlier);
  });
  return [...clashing].sort((a, b) => a - b);
}
