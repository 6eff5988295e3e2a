import type { JsonObject } from "@bufbuild/protobuf";
import { allowedByPrefixes } from "@gatehouse/abuse";
import { domainError, validationError } from "@gatehouse/errors";
import type { DeliveryLocale } from "@gatehouse/jobs";
import type { Entrypoint } from "@gatehouse/proto";
import { issueActivation, type ActivationStores } from "../activation/issue.ts";
import { issueConfirmation, type IssueDeps, type IssueStores } from "../confirmation/issue.ts";
import type { Passwords } from "../credentials/passwords.ts";
import { isBreached, type BreachDeps } from "../credentials/policy.ts";
import type { AssertionCatalog, DataFieldCatalog } from "../ports.ts";
import { answersToRecord, applyAnswers, unknownKeys } from "../terms/answers.ts";
import { catalogFor } from "../terms/catalog.ts";
import type { AcceptanceStore } from "../terms/store.ts";
import type { Transactional } from "../transactional.ts";
import { CONFIRMABLE_KEYS, newPulseId, newUserId, type IdKey } from "../users/identifiers.ts";
import { sortOutsideKeys } from "../users/outside-keys.ts";
import type { UserRecord } from "../users/record.ts";
import { IDENTIFIER_UNIQUE, isUniqueViolation, type UserStore } from "../users/store.ts";
import type { UpstreamIdentity } from "@gatehouse/idp";
import type { IdentityStore } from "../verifiers/upstream/store.ts";
import { validateRegistration } from "./validate.ts";
import type { EventStore } from "../events/store.ts";

/** What a registration writes, in one transaction. */
type RegisterStores = IssueStores &
  ActivationStores & {
    users: UserStore;
    acceptances: AcceptanceStore;
    identities: IdentityStore;
    events: EventStore;
  };

export interface RegisterDeps extends IssueDeps, BreachDeps {
  data: Transactional<RegisterStores>;
  passwords: Passwords;
  /** The legal-assertion catalog: answers record its latest versions. */
  catalog: AssertionCatalog;
  /** Tells a data key of no catalog (`unknown_key`) from another form's field (`not_in_entrypoint`). */
  dataFields?: DataFieldCatalog;
}

export interface RegisterRequest {
  entrypoint: Entrypoint;
  clientId: string;
  object: JsonObject | undefined;
  locale: DeliveryLocale;
  /** source.id of the envelope (recorded with answers to legal assertions). */
  sourceId: string;
  /** 1: the first page of a two-step form (only step 1's mandatory data required). */
  step?: number;
  /** The hosted registration page: each mandatory legal assertion must be accepted. */
  requireMandatoryAssertions?: boolean;
  /**
   * Social sign-in (contract section 11): the user of this verified upstream
   * identity, linked in the same transaction; no password; its email
   * confirmed without a code when the provider verified it.
   */
  upstream?: UpstreamIdentity;
  /** The application's allowed calling codes (section 17); empty or absent = any. */
  phonePrefixes?: string[];
}

/** Mandatory assertions of the entry point's catalog not accepted in `object.assertions` (hosted registration). */
async function unacceptedMandatory(catalog: AssertionCatalog, ep: Entrypoint, object: JsonObject | undefined) {
  const sent = object?.assertions;
  const accepted = (key: string) => {
    const node = sent && typeof sent === "object" && !Array.isArray(sent) ? sent[key] : undefined;
    return Boolean(node && typeof node === "object" && !Array.isArray(node) && node.value === true);
  };
  return [...(await catalogFor(catalog, ep)).values()]
    .filter((a) => a.mandatory && !accepted(a.key))
    .map((a) => ({ field: `object.assertions.${a.key}`, code: "required" }));
}

export interface Registered {
  user: UserRecord;
  /** Identifier keys whose confirmation code (or activation link) was queued; empty means the user may get a session now. */
  pendingConfirmation: IdKey[];
}

/**
 * Where the activation link of an assisted registration goes: the main
 * identifier when it can carry a message, else the first of email and phone
 * the user has; none is a 400 (nobody could activate the account).
 */
function activationTarget(
  ep: Entrypoint,
  ids: { key: IdKey; value: string }[],
): { key: "email" | "phone_number"; value: string } {
  const main = ep.fields.find((f) => f.type === "id" && f.main)?.key;
  const target =
    ids.find((i) => i.key === main && CONFIRMABLE_KEYS.includes(i.key)) ??
    ids.find((i) => CONFIRMABLE_KEYS.includes(i.key));
  if (!target) throw validationError([{ field: "object.ids.email.value", code: "required" }]);
  return target as { key: "email" | "phone_number"; value: string };
}

/**
 * Registers a user through an entry point: validation, then one transaction
 * holding the user, its identifiers (the unique constraint decides races for
 * a value) and the confirmation codes with their queued deliveries.
 */
export async function registerUser(deps: RegisterDeps, req: RegisterRequest): Promise<Registered> {
  const checked = validateRegistration(req.entrypoint, req.object, req.step ?? 0, req.upstream !== undefined);
  // A hosted registration page asks for each mandatory legal assertion; every error is reported at once.
  const unaccepted = req.requireMandatoryAssertions
    ? await unacceptedMandatory(deps.catalog, req.entrypoint, req.object)
    : [];
  if (!checked.ok || unaccepted.length)
    throw validationError(
      await sortOutsideKeys([...(checked.ok ? [] : checked.violations), ...unaccepted], deps.dataFields),
    );
  const valid = checked.value;
  const phone = valid.ids.find((i) => i.key === "phone_number")?.value;
  if (phone && !allowedByPrefixes(phone, req.phonePrefixes ?? []))
    throw validationError([{ field: "object.ids.phone_number.value", code: "invalid_value" }]);
  // Answers name assertions of the catalog of the entry point's typologies and record their latest versions.
  const wanted = new Map(Object.entries(valid.assertions));
  const catalog = wanted.size ? await catalogFor(deps.catalog, req.entrypoint) : new Map();
  const unknown = unknownKeys(wanted.keys(), catalog);
  if (unknown.length) throw validationError(unknown);
  if (valid.password !== undefined && (await isBreached(deps, valid.password)))
    throw validationError([{ field: "object.password", code: "password_weak" }]);
  // Hash before the transaction: argon2 must not hold a database connection.
  const passwordHash = valid.password === undefined ? null : await deps.passwords.hash(valid.password);
  const fields = new Map(req.entrypoint.fields.filter((f) => f.type === "id").map((f) => [f.key, f]));
  // Assisted (contract section 8): the account waits for its activation link, which confirms its identifier.
  const activation = req.entrypoint.assisted ? activationTarget(req.entrypoint, valid.ids) : undefined;
  // The email of an upstream identity is confirmed when the provider verified it (and it is that email).
  const upstreamConfirmed = (i: { key: IdKey; value: string }) =>
    i.key === "email" && req.upstream?.emailVerified === true && req.upstream.email === i.value;
  const needsConfirmation = valid.ids
    .filter(
      (i) =>
        fields.get(i.key)?.requiresConfirmation &&
        CONFIRMABLE_KEYS.includes(i.key) &&
        i.key !== activation?.key &&
        !upstreamConfirmed(i),
    )
    .map((i) => i.key);
  const now = new Date();
  const answers = answersToRecord({}, wanted, catalog);
  const assertions = applyAnswers({}, answers, now);

  const id = newUserId();
  const pulseId = newPulseId();
  const user = await deps.data.tx(async (stores) => {
    const { users } = stores;
    await stores.events.user("user.created", req.clientId, { id, pulseId });
    await users.insertUser({
      id,
      pulseId,
      passwordHash,
      datas: valid.datas,
      addresses: valid.addresses,
      assertions,
      clientId: req.clientId,
      entrypointId: req.entrypoint.id,
      awaitingActivation: activation !== undefined,
    });
    await stores.acceptances.append(
      id,
      answers,
      { clientId: req.clientId, sourceId: req.sourceId, via: "register" },
      now,
    );
    for (const { key, value } of valid.ids) {
      try {
        await users.insertIdentifier(id, key, value, upstreamConfirmed({ key, value }));
      } catch (err) {
        if (!isUniqueViolation(err, IDENTIFIER_UNIQUE)) throw err;
        throw domainError("IDENTIFIER_TAKEN", undefined, {
          metadata: { key },
          violations: [{ field: `object.ids.${key}.value`, code: "duplicate" }],
        });
      }
    }
    if (req.upstream) await stores.identities.link(id, req.upstream);
    for (const { key, value } of valid.ids) {
      if (!needsConfirmation.includes(key)) continue;
      await issueConfirmation(stores, deps, {
        userId: id,
        key: key as "email" | "phone_number",
        value,
        purpose: "register",
        locale: req.locale,
        clientId: req.clientId,
        entrypointId: req.entrypoint.id,
      });
    }
    if (activation)
      await issueActivation(stores, deps.keys, {
        userId: id,
        ...activation,
        locale: req.locale,
        clientId: req.clientId,
        entrypointId: req.entrypoint.id,
      });
    return users.byId(id);
  });
  if (!user) throw new Error("registered user vanished");
  return { user, pendingConfirmation: activation ? [activation.key, ...needsConfirmation] : needsConfirmation };
}
