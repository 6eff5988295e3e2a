import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { Violation } from "@gatehouse/errors";
import { canonicalId, E164, isEmail, type IdKey } from "./identifiers.ts";
import type { StoredAddress } from "./model.ts";

// Readers of the members of a user `object` (registration, replace, patch):
// each checks one node, records violations with their dotted paths and
// returns the value in stored form, or undefined.

export const ADDRESS_MEMBERS = [
  "streetAddress",
  "postalCode",
  "addressLocality",
  "addressRegion",
  "addressCountry",
] as const;
export const NAME_KEY = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const DATA_MAX = 200;
const ID_MAX = 200;

export interface Ctx {
  violations: Violation[];
  add(field: string, code: string): void;
}

export function newCtx(): Ctx {
  const ctx: Ctx = { violations: [], add: (field, code) => void ctx.violations.push({ field, code }) };
  return ctx;
}

export const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** YYYY-MM-DD naming a real calendar day. */
export function isIsoDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/**
 * Reads one `{objectType, value}` node; undefined when absent or null.
 * Unknown members and a wrong objectType are violations.
 */
export function nodeValue(
  ctx: Ctx,
  path: string,
  node: JsonValue | undefined,
  objectType: string,
): JsonValue | undefined {
  if (node === undefined || node === null) return undefined;
  if (!isObject(node)) {
    ctx.add(path, "invalid_type");
    return undefined;
  }
  for (const member of Object.keys(node))
    if (member !== "objectType" && member !== "value") ctx.add(`${path}.${member}`, "unknown_member");
  if (node.objectType !== undefined && node.objectType !== objectType) ctx.add(`${path}.objectType`, "invalid_value");
  const value = node.value;
  return value === null ? undefined : value;
}

export const isBlank = (v: JsonValue | undefined) => v === undefined || (typeof v === "string" && v.trim() === "");

/** An identifier value in canonical form, or undefined with a violation. */
export function idValue(ctx: Ctx, key: IdKey, value: JsonValue): string | undefined {
  const path = `object.ids.${key}.value`;
  if (typeof value !== "string") return void ctx.add(path, "invalid_type");
  const canonical = canonicalId(key, value);
  if (canonical.length > ID_MAX) ctx.add(path, "too_long");
  else if (key === "email" && !isEmail(canonical)) ctx.add(path, "invalid_format");
  else if (key === "phone_number" && !E164.test(canonical)) ctx.add(path, "invalid_format");
  else return canonical;
  return undefined;
}

/** A data value as stored (trimmed string), or undefined with a violation. */
export function dataValue(ctx: Ctx, key: string, value: JsonValue): string | undefined {
  const path = `object.datas.${key}.value`;
  if (typeof value !== "string") ctx.add(path, "invalid_type");
  else if (key === "birthday" && !isIsoDate(value)) ctx.add(path, "invalid_format");
  else if ([...value].length > DATA_MAX) ctx.add(path, "too_long");
  else return value.trim();
  return undefined;
}

/** A schema.org PostalAddress node; undefined for null or with violations. */
export function addressValue(ctx: Ctx, name: string, node: JsonValue): StoredAddress | undefined {
  const path = `object.addresses.${name}`;
  if (!NAME_KEY.test(name)) ctx.add(path, "invalid_value");
  if (node === null) return undefined;
  if (!isObject(node)) return void ctx.add(path, "invalid_type");
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
  return address;
}

/** An assertion answer (true accepts, false declines); undefined when absent or invalid. */
export function assertionValue(ctx: Ctx, key: string, node: JsonValue): boolean | undefined {
  const path = `object.assertions.${key}`;
  if (!NAME_KEY.test(key)) ctx.add(path, "unknown_key");
  const value = nodeValue(ctx, path, node, "assertion");
  if (value === undefined) return undefined;
  if (typeof value !== "boolean") return void ctx.add(`${path}.value`, "invalid_type");
  return value;
}
