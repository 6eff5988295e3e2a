import type { FormField } from "./form-model.ts";

/** Data fields typed on a page as the contract's `datas` nodes; blank ones are left out (not sent is not changed). */
export function dataOf(values: Record<string, string>): Record<string, { objectType: "data"; value: string }> {
  return Object.fromEntries(
    Object.entries(values)
      .filter(([, v]) => v !== "")
      .map(([k, v]) => [k, { objectType: "data" as const, value: v }]),
  );
}

/** The values of a form's inputs as typed (trimmed); a checkbox is "true" when checked. Never the password. */
export function valuesOf(fields: FormField[], form: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    if (f.type === "password") continue;
    if (f.type === "checkbox") {
      if (form[f.name] !== undefined) out[f.name] = "true";
    } else out[f.name] = (form[f.name] ?? "").trim();
  }
  return out;
}

/** Inputs left blank that the form requires: each gets a `required` violation (named like the users service's). */
export function blanks(fields: FormField[], values: Record<string, string>): { field: string; code: string }[] {
  return fields
    .filter((f) => f.required && f.type !== "password" && !values[f.name])
    .map((f) => ({ field: f.name, code: "required" }));
}
