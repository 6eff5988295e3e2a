import fc from "fast-check";

// JSON Schema (as the OpenAPI document of /openapi.json publishes it) to
// fast-check arbitraries: mostly values the schema allows, so requests get
// past validation into the services and the database, mixed with hostile ones
// (NUL bytes, lone surrogates, huge or wrong-typed values) at every depth.

export type Schema = Record<string, any>;

/** Strings a careless edge lets through to PostgreSQL, the templates or the logs. */
export const HOSTILE_STRINGS = [
  "\u0000",
  "a\u0000b",
  "\u0000\u0000\u0000",
  "\ud800",
  "x\udc00y",
  "\udbff\u0000",
  "%00",
  "\uffff",
  "\ufeff\u202e",
  "",
  " ",
  "\t\r\n",
  "é",
  "😀",
  "' OR '1'='1' --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "${jndi:ldap://x}",
  "a".repeat(3000),
  "\u0000".repeat(300),
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  // a plausible value with a NUL or a lone surrogate inside
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 8 }), fc.constantFrom("\u0000", "\ud800", "\udfff"), fc.string({ maxLength: 8 }))
      .map((p) => p.join("")),
  },
);

/** Any JSON value that is probably the wrong type, size or depth. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constantFrom(null, true, 0, -1, 1e308, 2 ** 53 + 1, -0.5, [], {}) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constant(nested(40)) },
);

function nested(depth: number): unknown {
  let v: unknown = "deep";
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/** Realistic strings by member name, so that format checks pass often. */
const NAMED: Record<string, fc.Arbitrary<string>> = {
  email: fc.constantFrom("ana@example.com", "x@y.co", "user+tag@example.org"),
  url: fc.constantFrom("https://shop.example.com", "http://localhost:3000/cb"),
  phone_number: fc.constantFrom("+34600111222", "+15551234567"),
  mobile: fc.constantFrom("+34600111222"),
  birthday: fc.constantFrom("1990-01-31", "2000-02-30"),
  password: fc.constantFrom("correct horse battery", "wrong password 123"),
  key: fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,10}$/),
};

/** Members of the contract's open maps (`ids`, `datas`, `addresses`, `assertions`) with their usual shapes. */
const OPEN_MAP_KEYS = [
  "email",
  "phone_number",
  "national_id",
  "screen_name",
  "name",
  "surname",
  "birthday",
  "home",
  "terms",
  "privacy",
  "unknown_key",
];
const openMember: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({
    objectType: fc.constantFrom("user_id", "data"),
    value: fc.oneof(NAMED.email!, NAMED.phone_number!, fc.string({ maxLength: 20 }), hostileString),
  }),
  fc.record({ objectType: fc.constant("assertion"), value: fc.oneof(fc.boolean(), hostileValue) }),
  fc.record(
    {
      objectType: fc.constant("address"),
      streetAddress: fc.oneof(fc.string({ maxLength: 20 }), hostileString),
      postalCode: fc.oneof(fc.constant("28001"), hostileString),
      addressCountry: fc.oneof(fc.constant("ES"), hostileString),
    },
    { requiredKeys: ["objectType"] },
  ),
  hostileValue,
);

export interface ArbOptions {
  /** Resolves `$ref` (OpenAPI components or `$id`s). */
  resolve: (ref: string) => Schema | undefined;
  /** Chance (0..1) that a non-string node is replaced by a hostile value or left out when required. */
  hostility: number;
  /** Chance (0..1) that a string is replaced by a hostile string (of the right type: what schemas let through). */
  stringHostility?: number;
  /** Realistic values by dotted path (`actor.id`), where the schema alone cannot know them (ids of the running stack). */
  hints?: Record<string, fc.Arbitrary<unknown>>;
}

function stringArb(schema: Schema, name: string): fc.Arbitrary<string> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as string[]));
  if (typeof schema.const === "string") return fc.constant(schema.const);
  const alternatives: fc.Arbitrary<string>[] = [];
  if (typeof schema.pattern === "string") {
    const [min, max] = [schema.minLength ?? 0, schema.maxLength ?? 256];
    // stringMatching ignores lengths: repeat a short match (right for the `^[class]+$` patterns of the contract)
    alternatives.push(
      fc
        .stringMatching(new RegExp(schema.pattern))
        .map((x) => (x.length >= min || !x ? x : x.repeat(Math.ceil(min / x.length))).slice(0, max)),
    );
  }
  if (NAMED[name]) alternatives.push(NAMED[name]);
  const minLength = schema.minLength ?? 0;
  alternatives.push(fc.string({ minLength, maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 24, 24)) }));
  return fc.oneof(...alternatives);
}

/** An arbitrary for `schema` at `path` (dotted: for hints and realistic strings). */
export function schemaArb(schema: Schema | undefined, opts: ArbOptions, path = "", depth = 0): fc.Arbitrary<unknown> {
  const hint = opts.hints?.[path];
  const valid = hint ?? validArb(schema ?? {}, opts, path, depth);
  const isString = schema?.type === "string" && !schema.enum;
  const chance = isString ? (opts.stringHostility ?? opts.hostility) : opts.hostility;
  if (chance <= 0) return valid;
  const weight = Math.max(1, Math.round(chance * 100));
  return fc.oneof(
    { weight: 100 - weight, arbitrary: valid },
    { weight, arbitrary: isString ? hostileString : hostileValue },
  );
}

const child = (path: string, key: string) => (path ? `${path}.${key}` : key);

function validArb(schema: Schema, opts: ArbOptions, path: string, depth: number): fc.Arbitrary<unknown> {
  const name = path.split(".").pop() ?? "";
  if (typeof schema.$ref === "string") {
    const target = opts.resolve(schema.$ref);
    return target ? validArb(target, opts, path, depth) : fc.jsonValue({ maxDepth: 2 });
  }
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => schemaArb(s, opts, path, depth + 1)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ("const" in schema) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      return stringArb(schema, name);
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1_000_000 });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(schemaArb(schema.items, opts, child(path, "0"), depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
      });
    case "object":
      return objectArb(schema, opts, path, depth);
    default:
      return depth > 4 ? fc.jsonValue({ maxDepth: 1 }) : fc.jsonValue({ maxDepth: 2 });
  }
}

const ABSENT = Symbol("absent");

function objectArb(schema: Schema, opts: ArbOptions, path: string, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set<string>(schema.required ?? []);
  // Required members are nearly always present (a missing one must still be a 400).
  const shape = Object.fromEntries(
    Object.entries(properties).map(([k, s]) => {
      const value = schemaArb(s, opts, child(path, k), depth + 1);
      // a hinted member is one the contract needs even where the schema has it optional
      const needed = required.has(k) || opts.hints?.[child(path, k)] !== undefined;
      if (needed && opts.hostility <= 0) return [k, value];
      // clean cases leave optional members out (the service may refuse some per route), others try them
      const optional: [number, number] = opts.hostility > 0 ? [1, 2] : [0, 1];
      const [present, absent]: [number, number] = needed ? [19, 1] : optional;
      if (present === 0) return [k, fc.constant(ABSENT)];
      return [k, fc.oneof({ weight: present, arbitrary: value }, { weight: absent, arbitrary: fc.constant(ABSENT) })];
    }),
  );
  const filled = fc.record(shape).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== ABSENT)));
  const open = schema.additionalProperties !== false && Object.keys(properties).length === 0;
  const extras = open
    ? fc.dictionary(fc.oneof(fc.constantFrom(...OPEN_MAP_KEYS), hostileString), openMember, { maxKeys: 3 })
    : opts.hostility <= 0
      ? fc.constant({})
      : fc.oneof(
          { weight: 9, arbitrary: fc.constant({}) },
          // an unknown member (sometimes a hostile key): always a 400
          {
            weight: 1,
            arbitrary: fc.dictionary(fc.oneof(fc.string({ maxLength: 6 }), hostileString), hostileValue, {
              maxKeys: 1,
            }),
          },
        );
  return fc.tuple(filled, extras).map(([base, more]) => ({ ...(more as object), ...base }));
}
