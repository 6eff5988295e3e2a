import { ConnectError } from "@connectrpc/connect";
import { errorFacts, type Violation } from "@gatehouse/errors";

// Contract section 2: `items` lists every validation error. The gateway's
// schema sees the structure (required members, types, unknown members); the
// service sees the rules (formats, catalogs, field rules). When the structure
// is wrong, the service is still asked to check what is left (validate only,
// nothing stored) and both lists are answered together.

type SchemaError = Error & { violations?: Violation[] };

const segments = (field: string) => (field ? field.split(".") : []);
/** One path is the other or lies under it (`url` and `url`, `contact.support` and `contact.support.objectType`). */
const overlaps = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);

/**
 * A member the schema found missing leaves every required row under it
 * unfilled: the service names those rows (`contact` missing is also
 * `contact.support.objectType`, `contact.support.schemaOrg.email.value`, …).
 */
const requiredWithin = (schema: Violation, rule: Violation) =>
  schema.code === "required" && rule.code === "required" && rule.field.startsWith(`${schema.field}.`);

/**
 * The body without the members the schema refused (unknown, wrong type or
 * value), so that the service judges only the rest; undefined when that
 * cannot be done without shifting array positions (the paths would lie).
 */
function withoutRefused(body: unknown, violations: readonly Violation[]): Record<string, unknown> | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const copy = structuredClone(body) as Record<string, unknown>;
  for (const v of violations) {
    if (v.code === "required") continue;
    const path = segments(v.field);
    if (path.length === 0) return undefined;
    let node: unknown = copy;
    for (const s of path.slice(0, -1)) node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[s] : undefined;
    if (typeof node !== "object" || node === null || Array.isArray(node)) return undefined;
    delete (node as Record<string, unknown>)[path[path.length - 1]!];
  }
  return copy;
}

/**
 * The schema's error with the service's violations of the rest added (those
 * on a path the schema already named are left out, except the required rows
 * under a missing member). Whatever goes wrong on
 * the way, the schema's own error is the answer.
 */
export async function withRuleViolations(err: SchemaError, body: unknown, check: (rest: Record<string, unknown>) => Promise<unknown>): Promise<SchemaError> {
  const schema = err.violations;
  if (!schema?.length) return err;
  const rest = withoutRefused(body, schema);
  if (!rest) return err;
  try {
    await check(rest);
    return err;
  } catch (e) {
    if (!(e instanceof ConnectError)) return err;
    const facts = errorFacts(e);
    if (facts.reason !== "VALIDATION_FAILED") return err;
    const added = facts.violations.filter((v) => !schema.some((s) => overlaps(s.field, v.field) && !requiredWithin(s, v)));
    return Object.assign(err, { violations: [...schema, ...added] });
  }
}
