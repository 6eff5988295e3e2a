import { isDeepStrictEqual } from "node:util";
import type { Violation } from "@gatehouse/errors";
import type { Entrypoint } from "@gatehouse/proto";
import { CONFIRMABLE_KEYS, isIdKey, type IdKey } from "../users/identifiers.ts";
import { answersToRecord, applyAnswers, unknownKeys } from "../terms/answers.ts";
import type { Answer } from "../terms/store.ts";
import type { PendingAssertion } from "@gatehouse/proto";
import type { JsonMap, UserRecord } from "../users/record.ts";
import type { UpdateInput, UpdateMode } from "./parse.ts";

/** One change to an identifier row. */
export type IdOp =
  /** A new identifier; unconfirmed. */
  | { kind: "insert"; key: IdKey; value: string; sendCode: boolean }
  /** The active value changes at once (it was never confirmed, or cannot be). */
  | { kind: "replace"; key: IdKey; value: string; sendCode: boolean }
  /** A confirmed value gets a replacement that applies once confirmed. */
  | { kind: "pend"; key: IdKey; value: string; sendCode: true }
  /** The pending replacement is dropped: the user asked for the active value again. */
  | { kind: "unpend"; key: IdKey }
  | { kind: "delete"; key: IdKey };

export interface UpdatePlan {
  ids: IdOp[];
  /** New maps, present only when they differ from the stored ones. */
  datas?: JsonMap;
  addresses?: JsonMap;
  assertions?: JsonMap;
  /** Answers to legal assertions to append to the acceptance history (with `assertions`). */
  answers: Answer[];
  /** Identifier keys that now await confirmation (206). */
  pending: IdKey[];
  /** Rule violations against the stored user (416). */
  violations: Violation[];
  changed: boolean;
}

const idPath = (key: string) => `object.ids.${key}.value`;

/** Identifier changes: confirmed values are protected, replaced ones wait for their code. */
function planIds(
  ep: Entrypoint,
  user: UserRecord,
  wanted: Map<IdKey, string | null>,
  mode: UpdateMode,
  out: UpdatePlan,
): void {
  const fields = new Map(ep.fields.filter((f) => f.type === "id" && isIdKey(f.key)).map((f) => [f.key as IdKey, f]));
  const target = new Map(wanted);
  // Replacement covers the entry point's identifier fields: those not sent are removed.
  if (mode === "replace") for (const key of fields.keys()) if (!target.has(key)) target.set(key, null);

  for (const [key, value] of target) {
    const current = user.identifiers.find((i) => i.key === key);
    const field = fields.get(key);
    const confirmable = CONFIRMABLE_KEYS.includes(key);
    const sendCode = confirmable && field?.requiresConfirmation === true;
    if (value === null) {
      if (!current) continue;
      if (current.confirmed) out.violations.push({ field: idPath(key), code: "confirmed_identifier" });
      else if (field?.mandatory) out.violations.push({ field: idPath(key), code: "required" });
      else out.ids.push({ kind: "delete", key });
    } else if (!current) {
      out.ids.push({ kind: "insert", key, value, sendCode });
    } else if (current.value === value) {
      if (current.pendingValue !== null) out.ids.push({ kind: "unpend", key });
    } else if (current.pendingValue === value) {
      continue; // already waiting for this value's confirmation
    } else if (current.confirmed && confirmable) {
      out.ids.push({ kind: "pend", key, value, sendCode: true });
    } else {
      out.ids.push({ kind: "replace", key, value, sendCode });
    }
  }
  out.pending = out.ids.filter((op) => "sendCode" in op && op.sendCode).map((op) => op.key);
}

/** Data fields of the entry point: patch sets or removes (null); replace rewrites them all. */
function planDatas(
  ep: Entrypoint,
  user: UserRecord,
  wanted: Map<string, string | null>,
  mode: UpdateMode,
  out: UpdatePlan,
): void {
  const fields = ep.fields.filter((f) => f.type === "field");
  const next: JsonMap = { ...user.datas };
  if (mode === "replace") for (const f of fields) delete next[f.key];
  for (const [key, value] of wanted) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  for (const f of fields) {
    const removed = mode === "replace" ? !wanted.get(f.key) : wanted.has(f.key) && wanted.get(f.key) === null;
    // Mandatory data (spec default) cannot be emptied; missing old data is the login's fca business.
    if ((f.mandatory ?? true) && removed && (mode === "replace" || user.datas[f.key] !== undefined)) {
      out.violations.push({ field: `object.datas.${f.key}.value`, code: "required" });
    }
  }
  if (!isDeepStrictEqual(next, user.datas)) out.datas = next;
}

function planAddresses(user: UserRecord, wanted: Map<string, unknown>, mode: UpdateMode, out: UpdatePlan): void {
  const next: JsonMap = mode === "replace" ? {} : { ...user.addresses };
  for (const [name, address] of wanted) {
    if (address === null) delete next[name];
    else next[name] = address;
  }
  if (!isDeepStrictEqual(next, user.addresses)) out.addresses = next;
}

/**
 * Answers to the latest version of each assertion of the entry point's
 * catalog (an unknown key is a 416), recorded with the time; re-sending the
 * same answer to the same version changes nothing.
 */
function planAssertions(
  user: UserRecord,
  wanted: Map<string, boolean>,
  catalog: ReadonlyMap<string, PendingAssertion>,
  now: Date,
  out: UpdatePlan,
): void {
  out.violations.push(...unknownKeys(wanted.keys(), catalog));
  out.answers = answersToRecord(user.assertions, wanted, catalog);
  if (out.answers.length) out.assertions = applyAnswers(user.assertions, out.answers, now);
}

/**
 * Compares what the request asks for with the stored user: the changes to
 * apply, the identifiers that will wait for confirmation, and the rules the
 * request would break. Pure: the caller applies the plan in a transaction.
 */
export function planUpdate(
  ep: Entrypoint,
  user: UserRecord,
  input: UpdateInput,
  mode: UpdateMode,
  now = new Date(),
  catalog: ReadonlyMap<string, PendingAssertion> = new Map(),
): UpdatePlan {
  const out: UpdatePlan = { ids: [], answers: [], pending: [], violations: [], changed: false };
  planIds(ep, user, input.ids ?? new Map(), mode, out);
  if (input.datas || mode === "replace") planDatas(ep, user, input.datas ?? new Map(), mode, out);
  if (input.addresses || mode === "replace") planAddresses(user, input.addresses ?? new Map(), mode, out);
  if (input.assertions) planAssertions(user, input.assertions, catalog, now, out);
  out.changed =
    out.ids.length > 0 ||
    out.datas !== undefined ||
    out.addresses !== undefined ||
    out.assertions !== undefined ||
    input.newPassword !== undefined;
  return out;
}
