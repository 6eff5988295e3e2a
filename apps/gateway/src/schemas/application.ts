import Type from "typebox";

// The spec's Application, Entrypoint and fieldConfig tables as request and
// response schemas. Structure and types live here; the registry enforces the
// semantic rules (formats, catalogs, id-field rules) for every caller.
const closed = { additionalProperties: false } as const;
export const ValueOf = Type.Object({ value: Type.String() }, closed);
export const person = (withMobile: boolean) =>
  Type.Object(
    {
      objectType: Type.Literal("person"),
      schemaOrg: Type.Object(withMobile ? { email: ValueOf, mobile: ValueOf } : { email: ValueOf }, closed),
    },
    closed,
  );
// Contract section 3; an empty key matches it no more than any other wrong one.
const Key = Type.String({ pattern: "^[a-z0-9][a-z0-9_-]{0,31}$" });
export const TypologyRef = Type.Object(
  { objectType: Type.Literal("typology"), id: Type.Optional(Type.String()) },
  closed,
);

export const FieldConfig = Type.Object(
  {
    objectType: Type.Literal("fieldConfig"),
    type: Type.Union([Type.Literal("id"), Type.Literal("field")]),
    key: Type.String(),
    main: Type.Optional(Type.Boolean()),
    mandatory: Type.Optional(Type.Boolean()),
    requiresConfirmation: Type.Optional(Type.Boolean()),
    requiresVerification: Type.Optional(Type.Boolean()),
    useForValidation: Type.Optional(Type.Boolean()),
    // 1 or 2 (docs/api.md); bounded here too, so that no number beyond int32 reaches the proto mapping.
    step: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
  },
  closed,
);

export const entrypointProps = {
  objectType: Type.Literal("entrypoint"),
  displayName: Type.String(),
  key: Type.Optional(Key),
  assisted: Type.Optional(Type.Boolean()),
  passwordless: Type.Optional(Type.Boolean()),
  fields: Type.Array(FieldConfig, { minItems: 1, maxItems: 50 }),
  typology: Type.Object({ register: TypologyRef, work: TypologyRef }, closed),
  identityProviders: Type.Optional(
    Type.Array(Type.String({ maxLength: 64 }), {
      maxItems: 10,
      description: "Keys of the identity providers whose buttons its hosted pages show (contract section 11)",
    }),
  ),
};

export const applicationProps = {
  objectType: Type.Literal("application"),
  key: Type.Optional(Key),
  displayName: Type.String(),
  url: Type.String(),
  contact: Type.Object({ support: person(true), projectManager: person(false), productOwner: person(false) }, closed),
  redirectUris: Type.Array(Type.String(), { minItems: 1, maxItems: 20 }),
  organizationSchemaOrg: Type.Object({ identifier: Type.String(), brand: Type.Optional(Type.String()) }, closed),
  schemaOrg: Type.Optional(Type.Object({ applicationCategory: Type.Optional(Type.String()) }, closed)),
};

export const ApplicationRequest = Type.Object(
  { ...applicationProps, entrypoints: Type.Array(Type.Object(entrypointProps, closed), { minItems: 1, maxItems: 20 }) },
  { ...closed, $id: "ApplicationRequest" },
);

export const EntrypointOut = Type.Object({ id: Type.String(), ...entrypointProps }, { $id: "Entrypoint" });

export const Application = Type.Object(
  {
    id: Type.String(),
    ...applicationProps,
    entrypoints: Type.Array(EntrypointOut),
    created: Type.String({ format: "date-time" }),
  },
  { $id: "Application" },
);

export const CreatedApplication = Type.Object(
  {
    ...Application.properties,
    password: Type.String({ description: "Generated client secret; shown only in this response" }),
  },
  { $id: "CreatedApplication" },
);
