// The admin API's JSON (contract sections 3, 5 and 6), as the console reads it.

export interface Page<T> {
  items: T[];
  next?: string;
}

export interface Person {
  objectType: "person";
  schemaOrg: { email: { value: string }; mobile?: { value: string } };
}

export interface FieldConfig {
  objectType: "fieldConfig";
  type: "id" | "field";
  key: string;
  main?: boolean;
  mandatory?: boolean;
  requiresConfirmation?: boolean;
  requiresVerification?: boolean;
  useForValidation?: boolean;
  step?: number;
}

export interface TypologyRef {
  objectType: "typology";
  id?: string;
}

export interface Entrypoint {
  id?: string;
  objectType: "entrypoint";
  displayName: string;
  key?: string;
  assisted?: boolean;
  passwordless?: boolean;
  fields: FieldConfig[];
  typology: { register: TypologyRef; work: TypologyRef };
  /** Keys of the identity providers whose buttons its hosted pages show (contract section 11); absent: none. */
  identityProviders?: string[];
}

export interface Application {
  id: string;
  objectType: "application";
  key?: string;
  displayName: string;
  url: string;
  contact: { support: Person; projectManager: Person; productOwner: Person };
  redirectUris: string[];
  organizationSchemaOrg: { identifier: string; brand?: string };
  schemaOrg?: { applicationCategory?: string };
  entrypoints: Entrypoint[];
  created: string;
  updated: string;
  whitelist: string[];
  defaultCallback: string;
  mfa: string;
  /** Contract section 17: the hosted pages' bot check, the own hourly SMS budget (null: none), allowed calling codes. */
  captcha: string;
  smsPerHour: number | null;
  phonePrefixes: string[];
}

export const CATALOG_KINDS = ["organizations", "brands", "properties", "fields", "typologies"] as const;
export type CatalogKind = (typeof CATALOG_KINDS)[number];
export const FIELD_FORMATS = ["text", "date", "email", "phone", "number", "boolean"] as const;

export interface CatalogItem {
  key: string;
  displayName: string;
  format?: string;
}

export interface Assertion {
  key: string;
  displayName: Record<string, string>;
  type: string;
  typology: string;
  property: string;
  mandatory: boolean;
  version: string;
  published: string;
  versions?: Assertion[];
}

export interface UserId {
  value: string;
  confirmed?: boolean;
  pending?: { value: string; requested?: string };
}

export interface User {
  id: number | string;
  pulse_id: string;
  ids: Record<string, UserId>;
  datas: Record<string, { value: unknown }>;
  addresses: Record<string, Record<string, string>>;
  assertions: Record<string, { value: boolean; version?: string; accepted?: string }>;
  created?: string;
  updated?: string;
  status: "active" | "locked";
  lastLogin: string | null;
  locked?: string;
  sessions?: number;
  mfa: boolean;
  /** How many passkeys the user holds (contract section 12). */
  passkeys: number;
  /** Accounts at upstream identity providers (contract section 11). */
  identities?: { provider: string; subject: string; email: string; linked: string }[];
}

/** An upstream identity provider (/admin/v1/identity-providers); never its secret. */
export interface IdentityProvider {
  key: string;
  displayName: string;
  type: "oidc" | "oauth2";
  preset?: string;
  issuer?: string;
  clientId: string;
  scopes: string[];
  trustEmail: boolean;
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  userinfoEndpoint?: string;
  hasClientSecret: boolean;
  callbackUrl: string;
}

export const PROVIDER_PRESETS = ["google", "apple", "microsoft", "github", "facebook"] as const;

export interface AuditItem {
  id: string;
  time: string;
  actor: string;
  action: string;
  target: string;
  address: string;
  details: Record<string, unknown>;
}

/** Contract section 14: the event types an endpoint may take ("*": every one). */
export const EVENT_TYPES = [
  "user.created",
  "user.confirmed",
  "user.updated",
  "user.password_changed",
  "user.mfa_enabled",
  "user.login",
  "user.locked",
  "user.unlocked",
  "user.deleted",
  "application.created",
  "application.updated",
  "application.password_rotated",
] as const;

/** A webhook endpoint (never its secret, which only creation and rotation show). */
export interface Webhook {
  id: string;
  url: string;
  events: string[];
  application: string | null;
  description: string;
  enabled: boolean;
  disabledReason: string | null;
  created: string;
  updated: string;
  previousSecretExpires: string | null;
}

export interface WebhookDelivery {
  id: string;
  eventId: string;
  type: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastResponseCode: number | null;
  lastError: string | null;
  nextAttempt: string | null;
  created: string;
  updated: string;
}

/** A bulk import's job (GET /admin/v1/users/import/{id}, contract section 15). */
export interface ImportJob {
  id: string;
  status: "running" | "done";
  entrypoint?: string;
  lines?: number;
  imported?: number;
  skipped?: number;
  failedCount?: number;
  failed?: { line: number; code: string; field: string }[];
  skips?: { line: number; code: string; field: string; user: string }[];
  created?: string | null;
  finished?: string | null;
}
