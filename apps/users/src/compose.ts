import { DEFAULT_SMS_LIMITS, type BreachCheck } from "@gatehouse/abuse";
import type { Db } from "@gatehouse/db";
import type { Kv } from "@gatehouse/kv";
import type { Logger } from "@gatehouse/logging";
import type { KeyRing } from "@gatehouse/secrets";
import { DEFAULT_ACCESS_CODE_OPTIONS, type AccessCodeOptions } from "./access-code/options.ts";
import { recordingLogins } from "./admin/login-record.ts";
import { auditOf } from "./admin/store.ts";
import type { ConfirmDeps } from "./confirmation/confirm.ts";
import { DEFAULT_CONFIRMATION_OPTIONS } from "./confirmation/options.ts";
import type { ResendDeps } from "./confirmation/resend.ts";
import { argon2Passwords, type Passwords } from "./credentials/passwords.ts";
import { smsGate, type SmsGate } from "./delivery/sms-gate.ts";
import type { UsersDeps } from "./deps.ts";
import { startEventRelay, type EventRelay } from "./events/relay.ts";
import { createLoginFlow, type LoginFlow } from "./login/flow.ts";
import { loginSteps } from "./login/steps.ts";
import type { AssertionCatalog, DataFieldCatalog, EntrypointDirectory, LoginGrants, UserSessions } from "./ports.ts";
import type { PasskeyDeps } from "./passkeys/relying-party.ts";
import type { RegisterDeps } from "./registration/register.ts";
import { dataOver, type Stores } from "./stores.ts";
import { noAssertions } from "./terms/catalog.ts";
import { createTerms, type Terms } from "./terms/terms.ts";
import type { Transactional } from "./transactional.ts";
import type { UpdateDeps } from "./update/update.ts";
import { createVerifiers, type Verifiers } from "./verifiers/index.ts";
import { upstreamProviders, type Providers } from "./verifiers/upstream/providers.ts";
import { registerUpstreamUser } from "./registration/upstream.ts";
import { DEFAULT_TIMEOUT_MS } from "@gatehouse/idp";
import { foreignHashes, type ForeignHashes } from "./verifiers/password/hashes/index.ts";
import { DEFAULT_LOGIN_LIMITS } from "./verifiers/throttle.ts";
import type { FactorDeps } from "./verifiers/totp/factor.ts";
import { DEFAULT_MFA_LIMITS } from "./verifiers/totp/limits.ts";

/** The users service's parts, built once per module from UsersDeps: what its RPC services adapt. */
export interface UsersParts {
  db: Db;
  data: Transactional<Stores>;
  kv: Kv;
  keys: KeyRing;
  logger: Logger;
  entrypoints: EntrypointDirectory;
  dataFields: DataFieldCatalog | undefined;
  catalog: AssertionCatalog;
  /** The auth service's grants, refused for a locked account and recorded as the last login. */
  grants: LoginGrants;
  sessions: UserSessions | undefined;
  passwords: Passwords;
  breached: BreachCheck | undefined;
  /** The SMS limits (every text message passes them when queued; code requests check them first). */
  sms: SmsGate;
  /** The foreign password hashes of imports (read, exported; `passwords` verifies them). */
  hashes: ForeignHashes;
  accessCodes: AccessCodeOptions;
  totpIssuer: string;
  verifiers: Verifiers;
  terms: Terms;
  confirm: ConfirmDeps;
  resend: ResendDeps;
  register: RegisterDeps;
  /** The upstream identity providers, ready for a round trip (social sign-in). */
  providers: Providers;
  update: UpdateDeps;
  factor: FactorDeps;
  /** The passkey ceremonies (enrolment, sign-in options). */
  passkeys: PasskeyDeps;
  flow: LoginFlow;
  /** Moves the events outbox to the registry (when wired). */
  relay: EventRelay | undefined;
}

/** Fills in the settings' defaults and builds the stores, the verifiers, the domain modules' dependencies and the login flow. */
export function composeUsers(given: UsersDeps): UsersParts {
  const { db, kv, keys, logger, entrypoints } = given;
  const publish = given.publishEvents;
  const relay = publish ? startEventRelay({ db, publish, logger: logger.child({ component: "events" }) }) : undefined;
  const limits = given.smsLimits ?? DEFAULT_SMS_LIMITS;
  const sms = smsGate({ kv, limits, entrypoints, audit: auditOf(db), logger });
  const data = dataOver(db, given.enqueue, () => relay?.wake(), sms);
  // One password hasher for every service of the module: one gate of argon2 runs per process;
  // it also verifies imported foreign hashes (contract section 15), which a right password replaces.
  const hashes = foreignHashes(keys);
  const passwords = hashes.passwords(given.passwords ?? argon2Passwords());
  const options = given.confirmation ?? DEFAULT_CONFIRMATION_OPTIONS;
  const accessCodes = given.accessCodes ?? DEFAULT_ACCESS_CODE_OPTIONS;
  const mfaLimits = given.mfaLimits ?? DEFAULT_MFA_LIMITS;
  const catalog = given.assertions ?? noAssertions;
  const totpIssuer = given.totpIssuer ?? "Gatehouse";
  const rp = {
    ...(given.relyingParty ?? { id: "localhost", origins: ["http://localhost:8080"] }),
    name: totpIssuer,
  };
  const passkeys: PasskeyDeps = { data, kv, keys, rp };
  const { breached } = given;
  const register = { data, keys, options, passwords, breached, catalog, dataFields: given.dataFields };
  const providers = upstreamProviders(
    given.upstreamClients ?? (async () => undefined),
    given.idp ?? { allowPrivate: false, timeoutMs: DEFAULT_TIMEOUT_MS },
    kv,
  );
  const verifiers = createVerifiers({
    data,
    kv,
    keys,
    passwords,
    loginLimits: given.loginLimits ?? DEFAULT_LOGIN_LIMITS,
    mfaLimits,
    accessCodes,
    confirmation: options,
    rp,
    upstream: {
      providers,
      register: async (identity, attempt) =>
        (
          await registerUpstreamUser(register, {
            identity,
            entrypoint: attempt.entrypoint!,
            clientId: attempt.clientId ?? "",
            locale: attempt.locale ?? "en",
            sourceId: "",
          })
        ).user,
    },
  });
  // Every session or code granted: refused for a locked account, recorded as the last login.
  const grants = recordingLogins(data.accounts, given.grants, given.sessions, data);
  const terms = createTerms({ data, keys, catalog });
  const confirm = { data, keys, options };
  const resend = { data, kv, keys, options };
  const update = { data, keys, options, passwords, breached, verifiers, catalog, dataFields: given.dataFields };
  const flow = createLoginFlow({
    kv,
    keys,
    logger,
    entrypoints,
    grants,
    verifiers,
    terms,
    steps: loginSteps({ kv, keys, logger, totp: data.totp, catalog, resend, passkeys }),
    mfa: { users: data.users, kv, limits: mfaLimits, totp: verifiers.totp },
    continuation: { users: data.users, confirm, update, passkeys },
    link: { keys, data },
  });
  return {
    db,
    data,
    kv,
    keys,
    logger,
    entrypoints,
    dataFields: given.dataFields,
    catalog,
    grants,
    sessions: given.sessions,
    passwords,
    breached,
    sms,
    hashes,
    accessCodes,
    totpIssuer,
    verifiers,
    terms,
    confirm,
    resend,
    register,
    providers,
    update,
    factor: { data, kv, keys, limits: mfaLimits },
    passkeys,
    flow,
    relay,
  };
}
