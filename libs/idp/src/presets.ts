import type { ProviderSettings } from "./provider.ts";

/** What a preset fills in; the operator still gives the key, clientId and clientSecret (and may override the rest). */
export type Preset = Pick<
  ProviderSettings,
  | "displayName"
  | "type"
  | "issuer"
  | "scopes"
  | "authorizationEndpoint"
  | "tokenEndpoint"
  | "userinfoEndpoint"
  | "claims"
>;

const OIDC_SCOPES = ["openid", "email", "profile"];
const none = { authorizationEndpoint: "", tokenEndpoint: "", userinfoEndpoint: "", claims: {} };

/**
 * The providers most sign-up pages offer. Microsoft's preset is the issuer of
 * personal Microsoft accounts (its tenant id is fixed; `common` has no single
 * issuer an ID token could be checked against): a work tenant gives its own
 * `issuer`. GitHub and Facebook are OAuth 2.0 with a userinfo endpoint; GitHub
 * says nothing of whether the email is verified, so it never is here.
 */
export const PRESETS: Record<string, Preset> = {
  google: { displayName: "Google", type: "oidc", issuer: "https://accounts.google.com", scopes: OIDC_SCOPES, ...none },
  apple: {
    displayName: "Apple",
    type: "oidc",
    issuer: "https://appleid.apple.com",
    scopes: ["openid", "email", "name"],
    ...none,
  },
  microsoft: {
    displayName: "Microsoft",
    type: "oidc",
    issuer: "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0",
    scopes: OIDC_SCOPES,
    ...none,
  },
  github: {
    displayName: "GitHub",
    type: "oauth2",
    issuer: "",
    scopes: ["read:user", "user:email"],
    authorizationEndpoint: "https://github.com/login/oauth/authorize",
    tokenEndpoint: "https://github.com/login/oauth/access_token",
    userinfoEndpoint: "https://api.github.com/user",
    claims: { subject: "id", email: "email", name: "name" },
  },
  facebook: {
    displayName: "Facebook",
    type: "oauth2",
    issuer: "",
    scopes: ["email", "public_profile"],
    authorizationEndpoint: "https://www.facebook.com/v19.0/dialog/oauth",
    tokenEndpoint: "https://graph.facebook.com/v19.0/oauth/access_token",
    userinfoEndpoint: "https://graph.facebook.com/me?fields=id,email,first_name,last_name",
    claims: { subject: "id", email: "email", name: "first_name", surname: "last_name" },
  },
};

/** The claims of an OIDC provider: the standard ones (OpenID Connect Core 5.1). */
export const OIDC_CLAIMS: ProviderSettings["claims"] = {
  subject: "sub",
  email: "email",
  emailVerified: "email_verified",
  name: "given_name",
  surname: "family_name",
  birthday: "birthdate",
  locale: "locale",
};
