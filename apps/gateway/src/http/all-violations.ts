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

type Node = Record<string, unknown> | unknown[];
const isNode = (x: unknown): x is Node => typeof x === "object" && x !== null;
const INDEX = /^(0|[1-9]\d*)$/;

/** What the service is asked about, and how its paths map back to the body's. */
interface Rest {
  body: Record<string, unknown>;
  /** A path of the rest (array positions after the removals) as a path of the body sent. */
  original(field: string): string;
}

/**
 * The body without the members and array elements the schema refused
 * (unknown, wrong type or value), so that the service judges only the rest;
 * undefined when the body itself is refused.
 */
function withoutRefused(body: unknown, violations: readonly Violation[]): Rest | undefined {
  if (!isNode(body) || Array.isArray(body)) return undefined;
  const copy = structuredClone(body) as Record<string, unknown>;
  const at = (path: string[]) =>
    path.reduce<unknown>((node, s) => (isNode(node) ? (node as Record<string, unknown>)[s] : undefined), copy);
  // Array elements go last, deepest and highest first, so that every path still names what it named.
  const removed = new Map<string, number[]>();
  for (const v of violations) {
    if (v.code === "required") continue;
    const path = segments(v.field);
    if (path.length === 0) return undefined;
    const parent = at(path.slice(0, -1));
    const last = path[path.length - 1]!;
    if (Array.isArray(parent) && INDEX.test(last)) {
      const key = path.slice(0, -1).join(".");
      removed.set(key, [...(removed.get(key) ?? []), Number(last)]);
    } else if (isNode(parent) && !Array.isArray(parent)) delete parent[last];
    else return undefined;
  }
  const arrays = [...removed.keys()].sort((a, b) => segments(b).length - segments(a).length);
  for (const key of arrays) {
    const list = at(segments(key));
    // An array the schema refused as a whole is gone already.
    if (!Array.isArray(list)) continue;
    for (const i of [...new Set(removed.get(key))].sort((a, b) => b - a)) list.splice(i, 1);
  }
  const original = (field: string) => {
    const path = segments(field);
    // Outer arrays first: the inner arrays' keys are paths of the body sent.
    for (const key of [...arrays].reverse()) {
      const prefix = segments(key);
      const index = path[prefix.length];
      if (index === undefined || !INDEX.test(index) || path.slice(0, prefix.length).join(".") !== key) continue;
      let n = Number(index);
      for (const r of [...new Set(removed.get(key))].sort((a, b) => a - b)) if (r <= n) n++;
      path[prefix.length] = String(n);
    }
    return path.join(".");
  };
  return { body: copy, original };
}

/**
 * The schema's error with the service's violations of the rest added (those
 * on a path the schema already named are left out, except the required rows
 * under a missing member). Whatever goes wrong on
 * the way, the schema's own error is the answer.
 */
export async function withRuleViolations(
  err: SchemaError,
  body: unknown,
  check: (rest: Record<string, unknown>) => Promise<unknown>,
): Promise<SchemaError> {
  const schema = err.violations;
  if (!schema?.length) return err;
  const rest = withoutRefused(body, schema);
  if (!rest) return err;
  try {
    await check(rest.body);
    return err;
  } catch (e) {
    if (!(e instanceof ConnectError)) return err;
    const facts = errorFacts(e);
    if (facts.reason !== "VALIDATION_FAILED") return err;
    const found = facts.violations.map((v) => ({ ...v, field: rest.original(v.field) }));
    const added = found.filter((v) => !schema.some((s) => overlaps(s.field, v.field) && !requiredWithin(s, v)));
    return Object.assign(err, { violations: [...schema, ...added] });
  }
}
