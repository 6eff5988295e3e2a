import fc from "fast-check";
import { validApplication } from "../stack-helpers.ts";
import { hostileString } from "./arbitraries.ts";
import type { FuzzContext } from "./fuzz-context.ts";

/** Realistic JSON members by path, from the running stack and the contract's shapes. */
export function jsonHints(ctx: FuzzContext, path: string): Record<string, fc.Arbitrary<unknown>> {
  const asApp = /\/(register|access)/.test(path);
  const word = fc.stringMatching(/^[a-z][a-z0-9]{2,9}$/);
  // realistic mostly, hostile (a string all the same) one time in six
  const spoiled = <T>(good: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 5, arbitrary: good }, { weight: 1, arbitrary: hostileString });
  const text = spoiled(fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,11}$/));
  const email = spoiled(word.map((w) => `${w}@example.com`));
  const member = (objectType: string, value: fc.Arbitrary<unknown>) =>
    fc.record({ objectType: fc.constant(objectType), value });
  const sample = validApplication();
  return {
    "actor.id": fc.oneof(
      {
        weight: 9,
        arbitrary: fc.constant(asApp ? ctx.clientId : path.includes("pulse-id") ? ctx.pulseId : ctx.userId),
      },
      { weight: 1, arbitrary: fc.constantFrom(ctx.clientId, ctx.userId) },
    ),
    "object.ids": path.includes("/access")
      ? fc.record({ email: member("user_id", email) })
      : fc.record(
          { email: member("user_id", email), phone_number: member("user_id", spoiled(fc.constant("+34600111222"))) },
          { requiredKeys: ["email"] },
        ),
    "object.datas": fc.record(
      { name: member("data", text), birthday: member("data", spoiled(fc.constant("1990-01-31"))) },
      { requiredKeys: [] },
    ),
    "object.addresses": fc.record(
      {
        home: fc.record(
          {
            objectType: fc.constant("address"),
            streetAddress: text,
            postalCode: spoiled(fc.constant("28001")),
            addressLocality: text,
            addressCountry: spoiled(fc.constant("ES")),
          },
          { requiredKeys: ["objectType"] },
        ),
      },
      { requiredKeys: [] },
    ),
    "object.assertions": fc.oneof(
      { weight: 4, arbitrary: fc.constant({}) },
      { weight: 1, arbitrary: fc.record({ [ctx.assertionKey]: member("assertion", fc.boolean()) }) },
    ),
    "object.password": fc.constantFrom("correct horse battery", "wrong password 1"),
    "context.url": fc.constantFrom(ctx.redirectUri, "https://evil.example/"),
    // POST /v2/apps and the admin API: the catalog keys of the default catalog
    key: word,
    url: fc.constant("https://shop.example.com"),
    redirectUris: fc.constant([ctx.redirectUri]),
    organizationSchemaOrg: fc.constant({ identifier: "default" }),
    contact: fc.constant(sample.contact),
    "entrypoints.0.fields": fc.constant(sample.entrypoints[0].fields),
    "entrypoints.0.typology": fc.constant(sample.entrypoints[0].typology),
    // An entry point of the admin API (POST and PATCH …/entrypoints), or a legal assertion's typology.
    ...(path.includes("/entrypoints")
      ? { fields: fc.constant(sample.entrypoints[0].fields), typology: fc.constant(sample.entrypoints[0].typology) }
      : { typology: fc.constantFrom("consumer", "x") }),
    property: fc.constant("default"),
    whitelist: fc.array(fc.oneof(fc.constant(ctx.redirectUri), hostileString), { maxLength: 2 }),
  };
}
