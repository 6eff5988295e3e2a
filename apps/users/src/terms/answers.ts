import type { Violation } from "@gatehouse/errors";
import type { PendingAssertion } from "@gatehouse/proto";
import type { Transactional } from "../transactional.ts";
import type { StoredAssertion } from "../users/model.ts";
import type { JsonMap } from "../users/record.ts";
import type { UserStore } from "../users/store.ts";
import type { AcceptanceStore, Answer, AnswerOrigin } from "./store.ts";
import type { EventStore } from "../events/store.ts";

/** Keys outside the catalog of the entry point's typologies: one violation each. */
export function unknownKeys(keys: Iterable<string>, catalog: ReadonlyMap<string, PendingAssertion>): Violation[] {
  return [...keys]
    .filter((k) => !catalog.has(k))
    .map((k) => ({ field: `object.assertions.${k}`, code: "unknown_key" }));
}

/** The answers that change the stored map: a new value, or the same value for a newer version. */
export function answersToRecord(
  stored: JsonMap,
  wanted: ReadonlyMap<string, boolean>,
  catalog: ReadonlyMap<string, PendingAssertion>,
): Answer[] {
  const out: Answer[] = [];
  for (const [key, value] of wanted) {
    const latest = catalog.get(key);
    if (!latest) continue;
    const current = stored[key] as StoredAssertion | undefined;
    if (current?.value === value && current.version === latest.version) continue;
    out.push({ key, version: latest.version, value });
  }
  return out;
}

/** The assertions map with the answers applied (the latest answer of each key is the one shown). */
export function applyAnswers(stored: JsonMap, answers: readonly Answer[], at: Date): JsonMap {
  const next: JsonMap = { ...stored };
  for (const a of answers)
    next[a.key] = { value: a.value, version: a.version, accepted: at.toISOString() } satisfies StoredAssertion;
  return next;
}

/**
 * Records answers of an existing user in one transaction with its row
 * locked (parallel answers and patches are applied one after the other):
 * the history rows and the `assertions` map. Returns the map as stored.
 */
export async function recordAnswers(
  data: Transactional<{ users: UserStore; acceptances: AcceptanceStore; events: EventStore }>,
  userId: string,
  wanted: ReadonlyMap<string, boolean>,
  catalog: ReadonlyMap<string, PendingAssertion>,
  origin: AnswerOrigin,
  at = new Date(),
): Promise<JsonMap | undefined> {
  return data.tx(async ({ users, acceptances, events }) => {
    if (!(await users.lock(userId))) return undefined;
    const user = (await users.byId(userId))!;
    const answers = answersToRecord(user.assertions, wanted, catalog);
    if (!answers.length) return user.assertions;
    const next = applyAnswers(user.assertions, answers, at);
    await acceptances.append(userId, answers, origin, at);
    await users.saveProfile(userId, { assertions: next });
    const changed = [...new Set(answers.map((a) => `assertions.${a.key}`))];
    await events.user("user.updated", origin.clientId, user, changed);
    return next;
  });
}
