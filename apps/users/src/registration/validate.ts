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

/** A registration object that passed every rule of its entry point. */
export interface ValidRegistration {
  password: string | undefined;
  ids: { key: IdKey; value: string }[];
  datas: Record<string, JsonValue>;
  addresses: Record<string, StoredAddress>;
  /** Answers without version/time; the caller stamps them. */
  assertions: Record<string, boolean>;
}

const OBJECT_MEMBERS = new Set(["objectType", "password", "ids", "datas", "addresses", "assertions"]);

function checkIds(ctx: Ctx, ep: Entrypoint, raw: JsonValue | undefined, out: ValidRegistration): void {
  const fields = new Map(ep.fields.filter((f) => f.type === "id").map((f) => [f.key, f]));
  const ids = raw === undefined || raw === null ? {} : raw;
  if (!isObject(ids)) return ctx.add("object.ids", "invalid_type");
  for (const key of Object.keys(ids))
    if (!fields.has(key) || !isIdKey(key)) ctx.violations.push(outsideKey(ep, "ids", key));
  for (const [key, field] of fields) {
    if (!isIdKey(key)) continue;
    const value = nodeValue(ctx, `object.ids.${key}`, ids[key], "user_id");
    if (isBlank(value)) {
      if (field.mandatory) ctx.add(`object.ids.${key}.value`, "required");
      continue;
    }
    const canonical = idValue(ctx, key, value!);
    if (canonical !== undefined) out.ids.push({ key, value: canonical });
  }
}

function checkDatas(ctx: Ctx, ep: Entrypoint, raw: JsonValue | undefined, out: ValidRegistration, step: number): void {
  const fields = new Map(ep.fields.filter((f) => f.type === "field").map((f) => [f.key, f]));
  const datas = raw === undefined || raw === null ? {} : raw;
  if (!isObject(datas)) return ctx.add("object.datas", "invalid_type");
  for (const key of Object.keys(datas)) if (!fields.has(key)) ctx.violations.push(outsideKey(ep, "datas", key));
  for (const [key, field] of fields) {
    const value = nodeValue(ctx, `object.datas.${key}`, datas[key], "data");
    if (isBlank(value)) {
      // Data fields are mandatory unless the entry point says otherwise (spec default true);
      // the first page of a two-step form requires only those of step 1.
      if ((field.mandatory ?? true) && (step !== 1 || (field.step ?? 1) <= 1))
        ctx.add(`object.datas.${key}.value`, "required");
      continue;
    }
    const stored = dataValue(ctx, key, value!);
    if (stored !== undefined) out.datas[key] = stored;
  }
}

function checkAddresses(ctx: Ctx, raw: JsonValue | undefined, out: ValidRegistration): void {
  if (raw === undefined || raw === null) return;
  if (!isObject(raw)) return ctx.add("object.addresses", "invalid_type");
  for (const [name, node] of Object.entries(raw)) {
    const address = addressValue(ctx, name, node);
    if (address) out.addresses[name] = address;
  }
}

function checkAssertions(ctx: Ctx, raw: JsonValue | undefined, out: ValidRegistration): void {
  if (raw === undefined || raw === null) return;
  if (!isObject(raw)) return ctx.add("object.assertions", "invalid_type");
  for (const [key, node] of Object.entries(raw)) {
    const value = assertionValue(ctx, key, node);
    if (value !== undefined) out.assertions[key] = value;
  }
}

/** The value typed for an identifier, if it is text (for the password policy; checkIds judges it). */
function typedId(ids: JsonValue | undefined, key: IdKey): string | undefined {
  const node = isObject(ids) ? ids[key] : undefined;
  const value = isObject(node) ? node.value : undefined;
  return typeof value === "string" ? value : undefined;
}

/**
 * Checks a registration `object` against its entry point; every violation is
 * collected. `step` 1 is the first page of a two-step entry point (only the
 * mandatory data of step 1 is required); 0 requires everything.
 */
export function validateRegistration(
  ep: Entrypoint,
  object: JsonObject | undefined,
  step = 0,
  /** An upstream identity's user (contract section 11): no password, whatever the entry point. */
  noPassword = false,
): { ok: true; value: ValidRegistration } | { ok: false; violations: Violation[] } {
  const ctx = newCtx();
  const out: ValidRegistration = { password: undefined, ids: [], datas: {}, addresses: {}, assertions: {} };
  const obj = object ?? {};
  for (const member of Object.keys(obj)) if (!OBJECT_MEMBERS.has(member)) ctx.add(`object.${member}`, "unknown_member");
  if (obj.objectType === undefined) ctx.add("object.objectType", "required");
  else if (obj.objectType !== "user") ctx.add("object.objectType", "invalid_value");

  const password = obj.password;
  // Passwordless entry points never take one; assisted ones leave it to the user's activation.
  if (ep.passwordless || ep.assisted || noPassword) {
    if (password !== undefined && password !== null) ctx.add("object.password", "not_allowed");
  } else if (password === undefined || password === null || password === "") ctx.add("object.password", "required");
  else if (typeof password !== "string") ctx.add("object.password", "invalid_type");
  else {
    const context = { emails: [typedId(obj.ids, "email")], phones: [typedId(obj.ids, "phone_number")] };
    const problem = passwordProblem(password, context);
    if (problem) ctx.add("object.password", problem);
    else out.password = password;
  }

  checkIds(ctx, ep, obj.ids, out);
  checkDatas(ctx, ep, obj.datas, out, step);
  checkAddresses(ctx, obj.addresses, out);
  checkAssertions(ctx, obj.assertions, out);
  return ctx.violations.length ? { ok: false, violations: ctx.violations } : { ok: true, value: out };
}
