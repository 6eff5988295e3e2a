import Type from "typebox";
import { ErrorEnvelope, Result } from "./common.ts";

const closed = { additionalProperties: false } as const;
const Key = Type.String({ minLength: 1, maxLength: 32, description: "^[a-z0-9][a-z0-9_-]{0,31}$" });

/** `displayName`: texts by language ("en" required), or one string taken as the English text. */
const DisplayName = Type.Union([
  Type.String({ minLength: 1, maxLength: 4000 }),
  Type.Record(Type.String({ maxLength: 8 }), Type.String({ maxLength: 4000 })),
]);

/** POST /admin/v1/assertions (contract section 7). */
export const PublishAssertionBody = Type.Object(
  {
    key: Key,
    displayName: DisplayName,
    type: Type.String({ minLength: 1, maxLength: 32 }),
    typology: Type.String({ minLength: 1, maxLength: 64 }),
    property: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: "Property catalog key (default `default`)" }),
    ),
    mandatory: Type.Optional(Type.Boolean({ description: "Default false" })),
    version: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { ...closed, $id: "PublishAssertion" },
);

/** One version of a legal assertion as the admin API returns it. */
export const AssertionOut = Type.Object({
  objectType: Type.Literal("assertion"),
  key: Type.String(),
  displayName: Type.Record(Type.String(), Type.String()),
  type: Type.String(),
  typology: Type.String(),
  property: Type.String(),
  mandatory: Type.Boolean(),
  version: Type.String(),
  published: Type.String({ description: "RFC 3339" }),
});

export const AssertionContent = Type.Object({ content: AssertionOut, result: Result });

/** GET /admin/v1/assertions: each assertion's latest version with every version, in pages. */
export const AssertionHistoryList = Type.Object({
  content: Type.Object({
    objectType: Type.Literal("assertions"),
    items: Type.Array(Type.Object({ ...AssertionOut.properties, versions: Type.Array(AssertionOut) })),
    next: Type.Optional(Type.String({ description: "Opaque cursor of the next page" })),
  }),
  result: Result,
});

export const AssertionVersions = Type.Object({
  content: Type.Object({ key: Type.String(), versions: Type.Array(AssertionOut) }),
  result: Result,
});

/** The spec's terms-and-conditions response (451) with the contract's error envelope. */
export const TermsRequired = Type.Object({
  content: Type.Object({
    url: Type.String(),
    assertions: Type.Object({
      objectType: Type.Literal("assertions"),
      items: Type.Array(
        Type.Object({
          objectType: Type.Literal("assertion"),
          key: Type.String(),
          version: Type.String(),
          displayName: Type.String(),
          type: Type.String(),
          mandatory: Type.Boolean(),
          typology: Type.String(),
          property: Type.String(),
        }),
      ),
    }),
  }),
  result: ErrorEnvelope.properties.result,
  errors: ErrorEnvelope.properties.errors,
});
