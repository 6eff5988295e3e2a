import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { Violation } from "@gatehouse/errors";
import type { Entrypoint } from "@gatehouse/proto";
import { passwordProblem } from "../credentials/policy.ts";
import {
  addressValue,
  assertionValue,
  dataValue,
  idValue,
  isBlank,
  isObject,
  newCtx,
  nodeValue,
  type Ctx,
} from "../users/fields.ts";
import { isIdKey, type IdKey } from "../users/identifiers.ts";
import { outsideKey } from "../users/outside-keys.ts";
import type { StoredAddress } from "../users/model.ts";

export type UpdateMode = "replace" | "patch";

/**
 * What a replace or patch asks for. A map is undefined when its member was
 * not sent; inside a map, null removes the entry. In replace mode the maps
 * are complete: entries not named are removed (see plan.ts).
 */
export interface UpdateInput {
  password: string | undefined;
  newPassword: string | undefined;
  /** A fresh MFA code (TOTP or recovery) for changes of email, phone or password (step-up, 428). */
  mfaCode?: string | undefined;
  ids: Map<IdKey, string | null> | undefined;
  datas: Map<string, string | null> | undefined;
  addresses: Map<string, StoredAddress | null> | undefined;
  assertions: Map<string, boolean> | undefined;
}

/**
 * Violations split the way the contract answers them: a malformed object
 * (wrong JSON types, unknown members, wrong objectType) is 400; values that
 * break a rule (format, a key outside the entry point or the catalog, length,
 * password policy) are 416.
 */
export interface ParsedUpdate {
  input: UpdateInput;
  malformed: Violation[];
  constraints: Violation[];
}

const OBJECT_MEMBERS = new Set([
  "objectType",
  "password",
  "newPassword",
  "mfaCode",
  "ids",
  "datas",
  "addresses",
  "assertions",
]);
const MALFORMED_CODES = new Set(["invalid_type", "unknown_member", "invalid_value", "required"]);

function readMap<T>(
  ctx: Ctx,
  member: string,
  raw: JsonValue | undefined,
  read: (key: string, node: JsonValue) => T | null | undefined,
): Map<string, T | null> | undefined {
  if (raw === undefined) return undefined;
  if (!isObject(raw)) {
    ctx.add(`object.${member}`, "invalid_type");
    return undefined;
  }
  const out = new Map<string, T | null>();
  for (const [key, node] of Object.entries(raw)) {
    const before = ctx.violations.length;
    const value = read(key, node);
    if (ctx.violations.length === before && value !== undefined) out.set(key, value);
  }
  return out;
}

/** Reads a replace/patch `object` against the entry point's fields; every violation is collected. */
export function parseUpdate(ep: Entrypoint, object: JsonObject | undefined, mode: UpdateMode): ParsedUpdate {
  const ctx = newCtx();
  const obj = object ?? {};
  const idFields = new Set(ep.fields.filter((f) => f.type === "id").map((f) => f.key));
  const dataFields = new Set(ep.fields.filter((f) => f.type === "field").map((f) => f.key));

  for (const member of Object.keys(obj)) if (!OBJECT_MEMBERS.has(member)) ctx.add(`object.${member}`, "unknown_member");
  if (obj.objectType !== "user")
    ctx.add("object.objectType", obj.objectType === undefined ? "required" : "invalid_value");
  if (mode === "replace")
    for (const m of ["ids", "datas", "assertions"])
      if (obj[m] === undefined || obj[m] === null) ctx.add(`object.${m}`, "required");

  const text = (member: "password" | "newPassword" | "mfaCode"): string | undefined => {
    const v = obj[member];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "string") return void ctx.add(`object.${member}`, "invalid_type");
    return v;
  };
  const password = text("password");
  const newPassword = text("newPassword");
  const mfaCode = text("mfaCode");
  if (newPassword !== undefined) {
    // The user's own identifiers are checked by updateUser, which reads the user.
    const problem = passwordProblem(newPassword);
    if (problem) ctx.add("object.newPassword", problem);
  }

  const ids = readMap(ctx, "ids", obj.ids ?? undefined, (key, node) => {
    if (!idFields.has(key) || !isIdKey(key)) return void ctx.violations.push(outsideKey(ep, "ids", key));
    const value = nodeValue(ctx, `object.ids.${key}`, node, "user_id");
    return isBlank(value) ? null : idValue(ctx, key, value!);
  }) as Map<IdKey, string | null> | undefined;
  const datas = readMap(ctx, "datas", obj.datas ?? undefined, (key, node) => {
    if (!dataFields.has(key)) return void ctx.violations.push(outsideKey(ep, "datas", key));
    const value = nodeValue(ctx, `object.datas.${key}`, node, "data");
    return isBlank(value) ? null : dataValue(ctx, key, value!);
  });
  const addresses = readMap(ctx, "addresses", obj.addresses ?? undefined, (name, node) =>
    node === null ? null : addressValue(ctx, name, node),
  );
  const assertions = readMap(ctx, "assertions", obj.assertions ?? undefined, (key, node) => {
    // An answer cannot be withdrawn by null: it is a record of what the user said.
    if (node === null || (isObject(node) && node.value === null))
      return void ctx.add(`object.assertions.${key}`, "not_allowed");
    return assertionValue(ctx, key, node);
  }) as Map<string, boolean> | undefined;

  const malformed = ctx.violations.filter((v) => MALFORMED_CODES.has(v.code));
  const constraints = ctx.violations.filter((v) => !MALFORMED_CODES.has(v.code));
  return { input: { password, newPassword, mfaCode, ids, datas, addresses, assertions }, malformed, constraints };
}
