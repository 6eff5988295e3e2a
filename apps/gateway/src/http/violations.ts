import type { TLocalizedValidationError } from "typebox/error";
import type { Violation } from "@gatehouse/errors";

// JSON-pointer "/entrypoints/0/fields/1" -> dotted "entrypoints.0.fields.1" (the contract's paths).
const dotted = (pointer: string) =>
  pointer
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
const join = (base: string, leaf: string) => (base && leaf ? `${base}.${leaf}` : base || leaf);

/** TypeBox validation errors as contract violations (one per field, with its dotted path). */
export function toViolations(errors: TLocalizedValidationError[], prefix = ""): Violation[] {
  const out: Violation[] = [];
  for (const e of errors) {
    const at = join(prefix, dotted(e.instancePath));
    switch (e.keyword) {
      case "required":
        for (const p of e.params.requiredProperties) out.push({ field: join(at, p), code: "required" });
        break;
      case "boolean":
        // `false` subschema of additionalProperties: the additionalProperties error names the member.
        if (e.schemaPath.endsWith("/additionalProperties")) break;
        out.push({ field: at, code: "invalid_value", description: e.message });
        break;
      case "additionalProperties":
        for (const p of e.params.additionalProperties) out.push({ field: join(at, p), code: "unknown_member" });
        break;
      case "type":
        out.push({ field: at, code: "invalid_type", description: e.message });
        break;
      case "const":
      case "enum":
      case "anyOf":
      case "oneOf":
        out.push({ field: at, code: "invalid_value", description: e.message });
        break;
      case "format":
      case "pattern":
        out.push({ field: at, code: "invalid_format", description: e.message });
        break;
      case "minLength":
        out.push({ field: at, code: e.params.limit === 1 ? "required" : "too_short" });
        break;
      case "maxLength":
        out.push({ field: at, code: "too_long" });
        break;
      case "minItems":
        out.push({ field: at, code: "too_few" });
        break;
      case "maxItems":
        out.push({ field: at, code: "too_many" });
        break;
      default:
        out.push({ field: at, code: "invalid_value", description: e.message });
    }
  }
  // The same field may fail several keywords; one item per field and code is enough.
  const seen = new Set<string>();
  return out.filter((v) => {
    const k = `${v.field}\u0000${v.code}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
