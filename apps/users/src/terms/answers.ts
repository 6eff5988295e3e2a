import type { Db, Queryable } from "@gatehouse/db";
import type { Violation } from "@gatehouse/errors";
import type { StoredAssertion } from "../users/model.ts";
import { userStore, type JsonMap } from "../users/store.ts";
import type { PendingAssertion } from "@gatehouse/proto";

/** One answer to record: the user accepted (true) or declined (false) this version. */
export interface Answer {
  key: string;
  version: string;
  value: boolean;
}

/** Where an answer came from: the application (client id), the device (source.id) and the route. */
export interface AnswerOrigin {
  clientId: string;
  sourceId: string;
  via: "register" | "login" | "update" | "page";
}

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

/** Appends the answers to the user's acceptance history (every answer, declines too). */
export async function insertAcceptances(
  q: Queryable,
  userId: string,
  answers: readonly Answer[],
  origin: AnswerOrigin,
  at: Date,
): Promise<void> {
  for (const a of answers) {
    await q.query(
      `INSERT INTO users.assertion_acceptances (user_id, key, version, value, client_id, source_id, via, answered_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [userId, a.key, a.version, a.value, origin.clientId, origin.sourceId, origin.via, at],
    );
  }
}

/**
 * Records answers of an existing user in one transaction with its row
 * locked (parallel answers and patches are applied one after the other):
 * the history rows and the `assertions` map. Returns the map as stored.
 */
export async function recordAnswers(
  db: Db,
  userId: string,
  wanted: ReadonlyMap<string, boolean>,
  catalog: ReadonlyMap<string, PendingAssertion>,
  origin: AnswerOrigin,
  at = new Date(),
): Promise<JsonMap | undefined> {
  return db.tx(async (q) => {
    const store = userStore(q);
    if (!(await store.lock(userId))) return undefined;
    const user = (await store.byId(userId))!;
    const answers = answersToRecord(user.assertions, wanted, catalog);
    if (!answers.length) return user.assertions;
    const next = applyAnswers(user.assertions, answers, at);
    await insertAcceptances(q, userId, answers, origin, at);
    await store.saveProfile(userId, { assertions: next });
    return next;
  });
}
