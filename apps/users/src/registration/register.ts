import type { JsonObject } from "@bufbuild/protobuf";
import type { Db } from "@gatehouse/db";
import { domainError, validationError } from "@gatehouse/errors";
import type { DeliveryLocale } from "@gatehouse/jobs";
import type { Entrypoint } from "@gatehouse/proto";
import { issueConfirmation, type IssueDeps } from "../confirmation/issue.ts";
import type { Passwords } from "../credentials/passwords.ts";
import { CONFIRMABLE_KEYS, newPulseId, newUserId, type IdKey } from "../users/identifiers.ts";
import { answersToRecord, applyAnswers, insertAcceptances, unknownKeys } from "../terms/answers.ts";
import type { AssertionCatalog } from "../ports.ts";
import { catalogFor } from "../terms/catalog.ts";
import { IDENTIFIER_UNIQUE, isUniqueViolation, userStore, type UserRecord } from "../users/store.ts";
import { validateRegistration } from "./validate.ts";

export interface RegisterDeps extends IssueDeps {
  db: Db;
  passwords: Passwords;
  /** The legal-assertion catalog: answers record its latest versions. */
  catalog: AssertionCatalog;
}

export interface RegisterRequest {
  entrypoint: Entrypoint;
  clientId: string;
  object: JsonObject | undefined;
  locale: DeliveryLocale;
  /** source.id of the envelope (recorded with answers to legal assertions). */
  sourceId: string;
}

export interface Registered {
  user: UserRecord;
  /** Identifier keys whose confirmation code was queued; empty means the user may get a session now. */
  pendingConfirmation: IdKey[];
}

/**
 * Registers a user through an entry point: validation, then one transaction
 * holding the user, its identifiers (the unique constraint decides races for
 * a value) and the confirmation codes with their queued deliveries.
 */
export async function registerUser(deps: RegisterDeps, req: RegisterRequest): Promise<Registered> {
  const checked = validateRegistration(req.entrypoint, req.object);
  if (!checked.ok) throw validationError(checked.violations);
  const valid = checked.value;
  // Answers name assertions of the catalog of the entry point's typologies and record their latest versions.
  const wanted = new Map(Object.entries(valid.assertions));
  const catalog = wanted.size ? await catalogFor(deps.catalog, req.entrypoint) : new Map();
  const unknown = unknownKeys(wanted.keys(), catalog);
  if (unknown.length) throw validationError(unknown);
  // Hash before the transaction: argon2 must not hold a database connection.
  const passwordHash = valid.password === undefined ? null : await deps.passwords.hash(valid.password);
  const fields = new Map(req.entrypoint.fields.filter((f) => f.type === "id").map((f) => [f.key, f]));
  const needsConfirmation = valid.ids
    .filter((i) => fields.get(i.key)?.requiresConfirmation && CONFIRMABLE_KEYS.includes(i.key))
    .map((i) => i.key);
  const now = new Date();
  const answers = answersToRecord({}, wanted, catalog);
  const assertions = applyAnswers({}, answers, now);

  const id = newUserId();
  const user = await deps.db.tx(async (q) => {
    const store = userStore(q);
    await store.insertUser({
      id,
      pulseId: newPulseId(),
      passwordHash,
      datas: valid.datas,
      addresses: valid.addresses,
      assertions,
      clientId: req.clientId,
      entrypointId: req.entrypoint.id,
    });
    await insertAcceptances(q, id, answers, { clientId: req.clientId, sourceId: req.sourceId, via: "register" }, now);
    for (const { key, value } of valid.ids) {
      try {
        await store.insertIdentifier(id, key, value, false);
      } catch (err) {
        if (!isUniqueViolation(err, IDENTIFIER_UNIQUE)) throw err;
        throw domainError("IDENTIFIER_TAKEN", undefined, {
          metadata: { key },
          violations: [{ field: `object.ids.${key}.value`, code: "duplicate" }],
        });
      }
    }
    for (const { key, value } of valid.ids) {
      if (!needsConfirmation.includes(key)) continue;
      await issueConfirmation(q, deps, {
        userId: id,
        key: key as "email" | "phone_number",
        value,
        purpose: "register",
        locale: req.locale,
        clientId: req.clientId,
        entrypointId: req.entrypoint.id,
      });
    }
    return store.byId(id);
  });
  if (!user) throw new Error("registered user vanished");
  return { user, pendingConfirmation: needsConfirmation };
}
