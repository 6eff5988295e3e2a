import Type from "typebox";

/** Contract section 2 error envelope (for the OpenAPI document and response serialization). */
export const ErrorEnvelope = Type.Object(
  {
    result: Type.Object({ status: Type.Integer(), elapsed: Type.Integer() }),
    errors: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.String(),
      subcode: Type.Optional(Type.Integer()),
      items: Type.Array(Type.Object({ field: Type.String(), code: Type.String(), message: Type.String() })),
    }),
  },
  { $id: "ErrorEnvelope", description: "Contract section 2 error envelope" },
);

export const Result = Type.Object({ status: Type.Integer(), elapsed: Type.Integer() });

/** The error envelope with content too (412: the URL that resends the code). */
export const ErrorEnvelopeWithUrl = Type.Object({
  content: Type.Object({ url: Type.String() }),
  result: ErrorEnvelope.properties.result,
  errors: ErrorEnvelope.properties.errors,
});

/** `{content, result}` */
export const SuccessEnvelope = <T extends Parameters<typeof Type.Object>[0]>(
  content: ReturnType<typeof Type.Object<T>>,
) => Type.Object({ content, result: Result });

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, Type.Ref("ErrorEnvelope")]));

export const ScQuery = Type.Object(
  { sc: Type.Optional(Type.Boolean({ description: "true: at most one validation error per call" })) },
  { additionalProperties: true },
);

export const OAuthError = Type.Object(
  { error: Type.String(), error_description: Type.Optional(Type.String()) },
  { $id: "OAuthError", description: "RFC 6749 section 5.2 error" },
);
