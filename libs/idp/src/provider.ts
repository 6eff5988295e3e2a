/** The kinds of upstream provider (contract section 11). */
export type ProviderType = "oidc" | "oauth2";

/** Our names for what a provider tells about its user; `claims` maps them to the provider's claim names. */
export const CLAIM_NAMES = [
  "subject",
  "email",
  "emailVerified",
  "name",
  "surname",
  "birthday",
  "locale",
  "phoneNumber",
] as const;
export type ClaimName = (typeof CLAIM_NAMES)[number];

/**
 * An identity provider as operators register it, minus its secret: the one
 * shape the registry stores, the admin API shows and the round trip reads.
 */
export interface ProviderSettings {
  key: string;
  displayName: string;
  type: ProviderType;
  /** The preset it was filled from ("" = none). */
  preset: string;
  /** OIDC: the issuer (its discovery document is `{issuer}/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  scopes: string[];
  /** The provider's `email_verified: true` is enough to link an existing account with that email. */
  trustEmail: boolean;
  /** OAuth 2.0 (and optionally OIDC): the endpoints; OIDC takes them from discovery when empty. */
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint: string;
  /** OAuth 2.0: our claim name → the userinfo member that holds it. */
  claims: Partial<Record<ClaimName, string>>;
}

/** What the round trip reads of a user once the provider's answer is verified. */
export interface UpstreamIdentity {
  provider: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  /** Standard claims mapped to our names (name, surname, birthday, locale), only those present. */
  profile: Partial<Record<"name" | "surname" | "birthday" | "locale", string>>;
}

/** The box of a provider's client secret (registry seals, users opens; same SECRET_KEY), bound to the provider's key. */
export const CLIENT_SECRET_LABEL = "idp-client-secret";
