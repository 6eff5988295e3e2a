import Type from "typebox";

const closed = { additionalProperties: false } as const;
const Url = Type.String({ maxLength: 2048 });
const Claims = Type.Record(Type.String({ maxLength: 32 }), Type.String({ maxLength: 100 }), {
  description:
    "oauth2: our name (subject, email, emailVerified, name, surname, birthday, locale) → the provider's userinfo member",
});
const Scopes = Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 });

const settings = {
  displayName: Type.Optional(Type.String({ maxLength: 1000, description: "The button's text; a preset fills it" })),
  issuer: Type.Optional(Url),
  clientId: Type.String({ maxLength: 255 }),
  clientSecret: Type.String({ maxLength: 4096, description: "Stored encrypted, never returned" }),
  scopes: Type.Optional(Scopes),
  trustEmail: Type.Optional(Type.Boolean({ description: "A verified email links an existing account at once" })),
  authorizationEndpoint: Type.Optional(Url),
  tokenEndpoint: Type.Optional(Url),
  userinfoEndpoint: Type.Optional(Url),
  claims: Type.Optional(Claims),
};

/** POST /admin/v1/identity-providers (contract section 11). */
export const NewIdentityProvider = Type.Object(
  {
    key: Type.String({ maxLength: 64 }),
    type: Type.Optional(Type.Union([Type.Literal("oidc"), Type.Literal("oauth2")])),
    preset: Type.Optional(Type.String({ maxLength: 32, description: "google, apple, microsoft, github or facebook" })),
    ...settings,
  },
  { ...closed, $id: "IdentityProviderNew" },
);

/** PATCH: each member sent replaces it; the key, type and preset stay. */
export const IdentityProviderPatch = Type.Object(
  {
    ...settings,
    clientId: Type.Optional(settings.clientId),
    clientSecret: Type.Optional(settings.clientSecret),
  },
  { ...closed, $id: "IdentityProviderPatch" },
);

export const IdentityProviderOut = Type.Object(
  {
    key: Type.String(),
    displayName: Type.String(),
    type: Type.String(),
    preset: Type.Optional(Type.String()),
    issuer: Type.Optional(Type.String()),
    clientId: Type.String(),
    scopes: Type.Array(Type.String()),
    trustEmail: Type.Boolean(),
    authorizationEndpoint: Type.Optional(Type.String()),
    tokenEndpoint: Type.Optional(Type.String()),
    userinfoEndpoint: Type.Optional(Type.String()),
    claims: Type.Optional(Type.Record(Type.String(), Type.String())),
    hasClientSecret: Type.Boolean({ description: "The secret itself is never returned" }),
    callbackUrl: Type.String({ description: "The redirect URI to register with the provider, exactly" }),
    created: Type.String({ format: "date-time" }),
    updated: Type.String({ format: "date-time" }),
  },
  { $id: "IdentityProvider" },
);
