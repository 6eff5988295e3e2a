import type { JsonObject } from "@bufbuild/protobuf";
import { validationError } from "@gatehouse/errors";
import type { Entrypoint } from "@gatehouse/proto";
import { constantTimeEqual } from "@gatehouse/secrets";
import { isBlank, newCtx, nodeValue } from "../../users/fields.ts";
import type { UserRecord } from "../../users/record.ts";

/** The entry point's `useForValidation` data fields: code sign-in must repeat their values. */
export const validationFields = (ep: Entrypoint) =>
  ep.fields.filter((f) => f.type === "field" && f.useForValidation).map((f) => f.key);

/**
 * `object.datas` of a code sign-in, read before anything is checked: only
 * the entry point's `useForValidation` fields, as `{objectType: "data",
 * value}` nodes (a malformed one is the envelope's 400). Missing values are
 * not an error here: they fail like a wrong code.
 */
export function readValidationData(ep: Entrypoint, raw: JsonObject | undefined): Map<string, string> {
  const wanted = new Set(validationFields(ep));
  const ctx = newCtx();
  const out = new Map<string, string>();
  for (const [key, node] of Object.entries(raw ?? {})) {
    if (!wanted.has(key)) {
      const fields = [...wanted].join(", ") || "it has none";
      ctx.violations.push({
        field: `object.datas.${key}`,
        code: "not_allowed",
        description: `only this entry point's useForValidation fields go with a code (${fields})`,
      });
      continue;
    }
    const value = nodeValue(ctx, `object.datas.${key}`, node, "data");
    if (value !== undefined && typeof value !== "string") ctx.add(`object.datas.${key}.value`, "invalid_type");
    else if (!isBlank(value)) out.set(key, value as string);
  }
  if (ctx.violations.length) throw validationError(ctx.violations);
  return out;
}

/** Trimmed, Unicode-normalized and case-folded: "Ana " and "ana" are the same name. */
const comparable = (v: unknown) => (typeof v === "string" ? v.trim().normalize("NFC").toLocaleLowerCase("und") : "");

/** Every `useForValidation` value sent equals the user's (compared in constant time); a missing one never matches. */
export function validationDataMatches(ep: Entrypoint, user: UserRecord, sent: Map<string, string>): boolean {
  let ok = true;
  for (const key of validationFields(ep)) {
    const stored = comparable(user.datas[key]);
    const given = comparable(sent.get(key));
    // No short-circuit: every field costs its comparison.
    ok = constantTimeEqual(given, stored) && stored !== "" && ok;
  }
  return ok;
}
