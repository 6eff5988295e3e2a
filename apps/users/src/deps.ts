import type { BreachCheck, SmsLimits } from "@gatehouse/abuse";
import type { Db } from "@gatehouse/db";
import type { Kv } from "@gatehouse/kv";
import type { Logger } from "@gatehouse/logging";
import type { KeyRing } from "@gatehouse/secrets";
import type { AccessCodeOptions } from "./access-code/options.ts";
import type { ConfirmationOptions } from "./confirmation/options.ts";
import type { PublishEvents } from "./events/relay.ts";
import type { Passwords } from "./credentials/passwords.ts";
import type { RelyingParty } from "./passkeys/relying-party.ts";
import type { LoginLimits } from "./verifiers/throttle.ts";
import type { MfaLimits } from "./verifiers/totp/limits.ts";
import type {
  AssertionCatalog,
  DataFieldCatalog,
  Enqueue,
  EntrypointDirectory,
  LoginGrants,
  UpstreamClients,
  UserSessions,
} from "./ports.ts";
import type { OutboundPolicy } from "@gatehouse/idp";

/** What the users service module is built from: its database and kv, its ports and its settings (composed in compose.ts). */
export interface UsersDeps {
  db: Db;
  kv: Kv;
  keys: KeyRing;
  logger: Logger;
  /** The registry's entry points (with their application's settings). */
  entrypoints: EntrypointDirectory;
  /** The registry's data-field catalog (to tell an unknown key from another form's field); absent = every such key is called `not_in_entrypoint`. */
  dataFields?: DataFieldCatalog;
  /** The registry's legal-assertion catalog; absent = no assertions. */
  assertions?: AssertionCatalog;
  /** The auth service: login sessions and authorization codes. */
  grants: LoginGrants;
  /** The auth service's sessions of each user (admin view, lock, log out, erasure); absent = those admin operations answer 503. */
  sessions?: UserSessions;
  /** Queues a confirmation delivery; throws when the queue cannot take it. */
  enqueue: Enqueue;
  passwords?: Passwords;
  /** The breached-password check (PWNED_PASSWORDS_URL); absent = not checked. */
  breached?: BreachCheck;
  /** The hour's SMS budgets, in total and per calling code (SMS_LIMIT_PER_HOUR, SMS_LIMIT_PER_PREFIX_PER_HOUR). */
  smsLimits?: SmsLimits;
  loginLimits?: LoginLimits;
  confirmation?: ConfirmationOptions;
  mfaLimits?: MfaLimits;
  /** Sign-in codes of code sign-in (lifetime, tries, sends per identifier value). */
  accessCodes?: AccessCodeOptions;
  /** The registry's identity providers with their secrets (social sign-in); absent = none. */
  upstreamClients?: UpstreamClients;
  /** Calls to identity providers (config `idp`): public https only and 10 s by default. */
  idp?: OutboundPolicy;
  /** Issuer shown by authenticator apps. */
  totpIssuer?: string;
  /** The registry's EventsService: the outbox relay hands it the events; absent = they wait in the outbox. */
  publishEvents?: PublishEvents;
  /** Passkeys' relying party: its id and origins (WEBAUTHN_RP_ID, WEBAUTHN_ORIGINS); absent = localhost:8080. Its name is totpIssuer. */
  relyingParty?: Omit<RelyingParty, "name">;
}
