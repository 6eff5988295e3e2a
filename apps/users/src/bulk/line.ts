import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { Entrypoint } from "@gatehouse/proto";
import { validateRegistration } from "../registration/validate.ts";
import { isIdKey, type IdKey } from "../users/identifiers.ts";
import type { StoredAddress } from "../users/model.ts";
import type { ForeignHashes, ImportContext } from "../verifiers/password/hashes/index.ts";

/** A line that passed every rule: the user to insert. */
export interface ImportedUser {
  ids: { key: IdKey; value: string }[];
  datas: Record<string, JsonValue>;
  addresses: Record<string, StoredAddress>;
  assertions: Record<string, boolean>;
  confirmed: ReadonlySet<IdKey>;
  /** The stored form of the line's hash (hashes/index.ts), or null: the user signs in by code or resets it. */
  passwordHash: string | null;
  created: Date | undefined;
}

/** Why a line was not imported: an error code and the member at fault (the registration's field without `object.`). */
export interface LineFault {
  code: string;
  field: string;
}

const MEMBERS = new Set(["ids", "datas", "addresses", "assertions", "confirmed", "password", "created"]);
// Stands in for the password in the entry point's checks: the line's hash is checked by its family instead.
const CHECKED_ELSEWHERE = "imported-hash-checked-by-its-family";

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const fault = (code: string, field: string): { fault: LineFault } => ({ fault: { code, field } });

function readConfirmed(v: JsonValue | undefined, ids: ImportedUser["ids"]): Set<IdKey> | undefined {
  if (v === undefined || v === null) return new Set();
  if (!Array.isArray(v)) return undefined;
  const present = new Set(ids.map((i) => i.key));
  const out = new Set<IdKey>();
  for (const k of v) {
    if (typeof k !== "string" || !isIdKey(k) || !present.has(k)) return undefined;
    out.add(k);
  }
  return out;
}

function readCreated(v: JsonValue | undefined): Date | undefined | null {
  if (v === undefined || v === null) return undefined;
  const at = typeof v === "string" ? new Date(v) : new Date(NaN);
  return Number.isNaN(at.getTime()) || at.getTime() > Date.now() + 60_000 ? null : at;
}

/**
 * One NDJSON line of an import (contract section 15), checked against the
 * entry point as a registration would be (ids, datas, addresses, assertions),
 * with a foreign password hash instead of a password. The first fault found
 * is the line's.
 */
export function readImportLine(
  text: string,
  ep: Entrypoint,
  hashes: ForeignHashes,
  ctx: ImportContext,
): { user: ImportedUser } | { fault: LineFault } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return fault("invalid_json", "");
  }
  if (!isObject(raw)) return fault("invalid_json", "");
  const unknown = Object.keys(raw).find((k) => !MEMBERS.has(k));
  if (unknown !== undefined) return fault("unknown_member", unknown);
  const given = raw.password !== undefined && raw.password !== null;
  const withPassword = !ep.passwordless && !ep.assisted;
  if (given && !withPassword) return fault("not_allowed", "password");
  const passwordHash = given ? hashes.read(raw.password!, ctx) : null;
  if (passwordHash === undefined) return fault("unsupported_hash", "password");
  const { ids, datas, addresses, assertions } = raw;
  const object: JsonObject = {
    objectType: "user",
    ids: ids ?? null,
    datas: datas ?? null,
    addresses: addresses ?? null,
  };
  if (assertions !== undefined) object.assertions = assertions;
  if (withPassword) object.password = CHECKED_ELSEWHERE;
  const checked = validateRegistration(ep, object);
  if (!checked.ok) {
    const first = checked.violations[0]!;
    return fault(first.code, first.field.replace(/^object\./, ""));
  }
  const confirmed = readConfirmed(raw.confirmed, checked.value.ids);
  if (!confirmed) return fault("invalid_value", "confirmed");
  const created = readCreated(raw.created);
  if (created === null) return fault("invalid_value", "created");
  const { password: _checkedElsewhere, ...valid } = checked.value;
  return { user: { ...valid, confirmed, passwordHash, created } };
}
