import type { StoredAssertion } from "../users/model.ts";
import type { JsonMap } from "../users/record.ts";
import type { PendingAssertion } from "@gatehouse/proto";

/**
 * What the user still has to answer, in key order: mandatory assertions not
 * accepted in their latest version, and optional ones not answered (either
 * way) in their latest version. A declined optional one is answered.
 */
export function pendingAssertions(stored: JsonMap, catalog: Iterable<PendingAssertion>): PendingAssertion[] {
  return [...catalog]
    .filter((a) => {
      const answer = stored[a.key] as StoredAssertion | undefined;
      if (answer?.version !== a.version) return true;
      return a.mandatory && answer.value !== true;
    })
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** True when the login must stop at 451: a mandatory assertion is pending. */
export const blocksLogin = (pending: readonly PendingAssertion[]) => pending.some((a) => a.mandatory);
