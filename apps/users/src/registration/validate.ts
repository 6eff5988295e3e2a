import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { Violation } from "@gatehouse/errors";
import type { Entrypoint } from "@gatehouse/proto";
import { passwordPolicy } from "../credentials/passwords.ts";
import { canonicalId, E164, isEmail, isIdKey, type IdKey } from "../users/identifiers.ts";
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
const ADDRESS_MEMBERS = ["streetAddress", "postalCode", "addressLocality", "addressRegion", "addressCountry"] as const;
const NAME_KEY = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const DATA_MAX = 200;
const ID_MAX = 200;

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** YYYY-MM-DD naming a real calendar day. */
export function isIsoDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

interface Ctx {
  violations: Violation[];
  add(field: string, code: string): void;
}

/**
 * Reads one `{objectType, value}` node; undefined when absent or null.
 * Unknown members and a wrong objectType are violations.
 */
function nodeValue(ctx: Ctx, path: string, node: JsonValue | undefined, objectType: string): JsonValue | undefined {
  if (node === undefined || node === null) return undefined;
  if (!isObject(node)) {
    ctx.add(path, "invalid_type");
    return undefined;
  }
  for (const member of Object.keys(node)) if (member !== "objectType" && member !== "value") ctx.add(`${path}.${member}`, "unknown_member");
  if (node.objectType !== undefined && node.objectType !== objectType) ctx.add(`${path}.objectType`, "invalid_value");
  const value = node.value;
  return value === null ? undefined : value;
}

function checkIds(ctx: Ctx, ep: Entrypoint, raw: JsonValue | undefined, out: ValidRegistration): void {
  const fields = new Map(ep.fields.filter((f) => f.type === "id").map((f) => [f.key, f]));
  const ids = raw === undefined || raw === null ? {} : raw;
  if (!isObject(ids)) return ctx.add("object.ids", "invalid_type");
  for (const key of Object.keys(ids)) if (!fields.has(key) || !isIdKey(key)) ctx.add(`object.ids.${key}`, "unknown_key");
  for (const [key, field] of fields) {
    if (!isIdKey(key)) continue;
    const path = `object.ids.${key}.value`;
    const value = nodeValue(ctx, `object.ids.${key}`, ids[key], "user_id");
    if (value === undefined || (typeof value === "string" && value.trim() === "")) {
      if (field.mandatory) ctx.add(path, "required");
      continue;
    }
    if (typeof value !== "string") {
      ctx.add(path, "invalid_type");
      continue;
    }
    const canonical = canonicalId(key, value);
    if (canonical.length > ID_MAX) ctx.add(path, "too_long");
    else if (key === "email" && !isEmail(canonical)) ctx.add(path, "invalid_format");
    else if (key === "phone_number" && !E164.test(canonical)) ctx.add(path, "invalid_format");
    else out.ids.push({ key, value: canonical });
  }
}

function checkDatas(ctx: Ctx, ep: Entrypoint, raw: JsonValue | undefined, out: ValidRegistration): void {
  const fields = new Map(ep.fields.filter((f) => f.type === "field").map((f) => [f.key, f]));
  const datas = raw === undefined || raw === null ? {} : raw;
  if (!isObject(datas)) return ctx.add("object.datas", "invalid_type");
  for (const key of Object.keys(datas)) if (!fields.has(key)) ctx.add(`object.datas.${key}`, "unknown_key");
  for (const [key, field] of fields) {
    const path = `object.datas.${key}.value`;
    const value = nodeValue(ctx, `object.datas.${key}`, datas[key], "data");
    if (value === undefined || (typeof value === "string" && value.trim() === "")) {
      // Data fields are mandatory unless the entry point says otherwise (spec default true).
      if (field.mandatory ?? true) ctx.add(path, "required");
      continue;
    }
    if (typeof value !== "string") ctx.add(path, "invalid_type");
    else if (key === "birthday" && !isIsoDate(value)) ctx.add(path, "invalid_format");
    else if ([...value].length > DATA_MAX) ctx.add(path, "too_long");
    else out.datas[key] = value.trim();
  }
}

function checkAddresses(ctx: Ctx, raw: JsonValue | undefined, out: ValidRegistration): void {
  if (raw === undefined || raw === null) return;
  if (!isObject(raw)) return ctx.add("object.addresses", "invalid_type");
  for (const [name, node] of Object.entries(raw)) {
    const path = `object.addresses.${name}`;
    if (!NAME_KEY.test(name)) ctx.add(path, "invalid_value");
    if (node === null) continue;
    if (!isObject(node)) {
      ctx.add(path, "invalid_type");
      continue;
    }
    const address: StoredAddress = {};
    for (const [member, v] of Object.entries(node)) {
      if (member === "objectType") {
        if (v !== "address") ctx.add(`${path}.objectType`, "invalid_value");
      } else if (!(ADDRESS_MEMBERS as readonly string[]).includes(member)) ctx.add(`${path}.${member}`, "unknown_member");
      else if (v === null) continue;
      else if (typeof v !== "string") ctx.add(`${path}.${member}`, "invalid_type");
      else if ([...v].length > DATA_MAX) ctx.add(`${path}.${member}`, "too_long");
      else if (member === "addressCountry" && !/^[A-Z]{2}$/.test(v)) ctx.add(`${path}.${member}`, "invalid_format");
      else address[member as keyof StoredAddress] = v;
    }
    out.addresses[name] = address;
  }
}

function checkAssertions(ctx: Ctx, raw: JsonValue | undefined, out: ValidRegistration): void {
  if (raw === undefined || raw === null) return;
  if (!isObject(raw)) return ctx.add("object.assertions", "invalid_type");
  for (const [key, node] of Object.entries(raw)) {
    const path = `object.assertions.${key}`;
    if (!NAME_KEY.test(key)) ctx.add(path, "unknown_key");
    const value = nodeValue(ctx, path, node, "assertion");
    if (value === undefined) continue;
    if (typeof value !== "boolean") ctx.add(`${path}.value`, "invalid_type");
    else out.assertions[key] = value;
  }
}

/** Checks a registration `object` against its entry point; every violation is collected. */
export function validateRegistration(
  ep: Entrypoint,
  object: JsonObject | undefined,
): { ok: true; value: ValidRegistration } | { ok: false; violations: Violation[] } {
  const ctx: Ctx = { violations: [], add: (field, code) => void ctx.violations.push({ field, code }) };
  const out: ValidRegistration = { password: undefined, ids: [], datas: {}, addresses: {}, assertions: {} };
  const obj = object ?? {};
  for (const member of Object.keys(obj)) if (!OBJECT_MEMBERS.has(member)) ctx.add(`object.${member}`, "unknown_member");
  if (obj.objectType === undefined) ctx.add("object.objectType", "required");
  else if (obj.objectType !== "user") ctx.add("object.objectType", "invalid_value");

  const password = obj.password;
  if (ep.passwordless) {
    if (password !== undefined && password !== null) ctx.add("object.password", "not_allowed");
  } else if (password === undefined || password === null || password === "") ctx.add("object.password", "required");
  else if (typeof password !== "string") ctx.add("object.password", "invalid_type");
  else {
    const problem = passwordPolicy(password);
    if (problem) ctx.add("object.password", problem);
    else out.password = password;
  }

  checkIds(ctx, ep, obj.ids, out);
  checkDatas(ctx, ep, obj.datas, out);
  checkAddresses(ctx, obj.addresses, out);
  checkAssertions(ctx, obj.assertions, out);
  return ctx.violations.length ? { ok: false, violations: ctx.violations } : { ok: true, value: out };
}
