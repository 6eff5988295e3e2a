import { isIP } from "node:net";
import { resolve } from "node:path";
import { ConfigError } from "./config-error.ts";
import { passwordHashParams, type PasswordHashParams } from "./password-hash.ts";
import { webauthnConfig, type WebAuthnConfig } from "./webauthn.ts";

// The typed environment of contract section 1, read once at start-up.
export type SigningAlg = "RS256" | "ES256" | "EdDSA";
const SIGNING_ALGS: readonly string[] = ["RS256", "ES256", "EdDSA"];

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  redisPrefix: string;
  /** How long one Redis command may take before the request fails closed (503): REDIS_COMMAND_TIMEOUT_MS. */
  redisCommandTimeoutMs: number;
  smtpUrl: string | undefined;
  smsWebhookUrl: string | undefined;
  /**
   * Contract section 17: PWNED_PASSWORDS_URL (a Have I Been Pwned range API, off when unset) and the hour's
   * budget of text messages in total and per destination calling code.
   */
  abuse: { pwnedPasswordsUrl: string | undefined; smsPerHour: number; smsPerPrefixPerHour: number };
  /**
   * Calls to upstream identity providers (contract section 11): IDP_TIMEOUT_MS
   * per call (10 s), and IDP_ALLOW_PRIVATE=true to allow private addresses
   * (a loopback host is always allowed, http too: section 11's development).
   */
  idp: { allowPrivate: boolean; timeoutMs: number };
  secretKey: string | undefined;
  publicBaseUrl: string;
  publicGraphUrl: string;
  publicAuthUrl: string;
  bootstrapOperator: { clientId: string; clientSecret: string } | undefined;
  /** BOOTSTRAP_OPERATOR_EMAIL + BOOTSTRAP_OPERATOR_PASSWORD: the first operator person, created at start when absent. */
  bootstrapOperatorPerson: { email: string; password: string } | undefined;
  accessTokenTtlSeconds: number;
  /**
   * Failed logins allowed in each window (contract sections 5 and 10): per
   * account from one address, per account from every address (then only
   * addresses it logged in from before go on), per address across accounts
   * (then only accounts without failures from there go on).
   */
  loginLimits: { perAddressAccount: number; perAccount: number; perAddress: number; windowSeconds: number };
  /**
   * Proxies whose X-Forwarded-For the gateway believes (addresses or CIDRs, or
   * proxy-addr's names loopback, linklocal, uniquelocal); empty: none, the
   * client address is the connection's.
   */
  trustedProxies: string[];
  /** Confirmation code lifetimes and the resend limit (per user and identifier, per window). */
  confirmation: { emailTtlSeconds: number; smsTtlSeconds: number; resendLimit: number; resendWindowSeconds: number };
  /** Lifetime of an authorization code (60 s to 10 min). */
  authorizationCodeTtlSeconds: number;
  /** Device authorization grant (RFC 8628): code lifetime, wrong user codes per client address and window. */
  deviceCode: { ttlSeconds: number; failuresPerAddress: number };
  refreshTokenTtlSeconds: number;
  /** A refresh family unused this long ends (idle lifetime). */
  refreshIdleTtlSeconds: number;
  /** The token signing algorithm (contract section 9): RS256 by default. */
  signingAlg: SigningAlg;
  /** An active signing key older than this is rotated (SIGNING_KEY_ROTATION_DAYS, 0 = only on demand). */
  signingKeyRotationSeconds: number;
  logLevel: string;
  /** Base URLs of the services' Connect endpoints when they run as separate processes. */
  serviceUrls: { registry: string; auth: string; users: string };
  /**
   * Listening ports of the service processes (start:services, Kubernetes);
   * `worker` is the confirmation worker's health, readiness and metrics port.
   */
  servicePorts: { registry: number; auth: number; users: number; worker: number };
  /** Maximum request body the gateway accepts, in bytes. */
  bodyLimitBytes: number;
  /** Seconds a client has to send a whole request (headers: half of it) before a 408 (contract section 10: at most 30). */
  requestTimeoutSeconds: number;
  /** How long the users service keeps the registry's legal-assertion catalog (0 = ask every time). */
  assertionsCacheTtlSeconds: number;
  /**
   * SIGTERM: seconds a process keeps serving with /readyz at 503 before it
   * stops accepting connections (longer than a balancer's health-check period).
   */
  shutdownDelaySeconds: number;
  /**
   * HTTP_KEEP_ALIVE_S: how long the gateway keeps an idle client connection (and the Keep-Alive hint it
   * sends). Below SHUTDOWN_DELAY_S, so clients that honour the hint drop idle connections before a
   * draining replica closes them (no request lost on a connection closed under it).
   */
  httpKeepAliveSeconds: number;
  /** argon2id cost; undefined = the users service's production parameters (TEST_PASSWORD_HASH, tests only). */
  passwordHashParams: PasswordHashParams | undefined;
  /** Passkeys' relying party: WEBAUTHN_RP_ID (default: {auth_url}'s host) and the accepted origins. */
  webauthn: WebAuthnConfig;
  /** Webhooks (contract section 14). */
  webhooks: {
    /** WEBHOOK_ALLOW_PRIVATE=true: http and loopback/private targets are allowed. */
    allowPrivate: boolean;
    /** WEBHOOK_RETRY_BASE_MS: the first retry's wait (5 s); the schedule grows ×4 from it. */
    retryBaseMs: number;
  };
}

function flag(env: Env, name: string): boolean {
  const v = (env[name] ?? "").trim().toLowerCase();
  if (v === "" || v === "false" || v === "0") return false;
  if (v === "true" || v === "1") return true;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

export { ConfigError };
export type { WebAuthnConfig } from "./webauthn.ts";
export { CHEAP_TEST_HASH_PARAMS, passwordHashParams, type PasswordHashParams } from "./password-hash.ts";

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** SECRET_KEY as @gatehouse/secrets reads it (hex, or base64url/base64) and of 32 bytes or more; checked here so a bad one is a configuration error. */
function secretKey(env: Env): string | undefined {
  const raw = (env.SECRET_KEY ?? "").trim();
  if (!raw) return undefined;
  const bytes = /^[0-9a-fA-F]{64,}$/.test(raw)
    ? raw.length / 2
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(raw)
      ? Buffer.from(raw, "base64url").length
      : 0;
  if (bytes < 32)
    throw new ConfigError(
      "SECRET_KEY must be 32 or more random bytes, hex or base64url encoded (e.g. openssl rand -hex 32)",
    );
  return env.SECRET_KEY;
}

function url(env: Env, name: string, fallback: string | undefined, schemes: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a URL: "${raw}"`);
  }
  if (!schemes.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${schemes.join(" or ")}, got ${parsed.protocol}`);
  }
  return raw;
}

const stripSlash = (u: string) => u.replace(/\/+$/, "");

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** TRUSTED_PROXIES: comma- or space-separated addresses and CIDRs; each checked here, not at the first request. */
function trustedProxies(env: Env): string[] {
  if (env.TRUST_PROXY) {
    throw new ConfigError(
      "TRUST_PROXY is no longer read: list the proxies whose X-Forwarded-For may be trusted in TRUSTED_PROXIES (addresses or CIDRs)",
    );
  }
  const list = (env.TRUSTED_PROXIES ?? "").split(/[\s,]+/).filter(Boolean);
  for (const entry of list) {
    if (PROXY_NAMES.has(entry)) continue;
    const [ip = "", bits, extra] = entry.split("/");
    const family = isIP(ip);
    const max = family === 6 ? 128 : 32;
    const badBits = bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > max);
    if (!family || badBits || extra !== undefined) {
      throw new ConfigError(
        `TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR (e.g. 10.0.0.0/8, 2001:db8::/32)`,
      );
    }
  }
  return list;
}

/** BOOTSTRAP_OPERATOR_EMAIL and BOOTSTRAP_OPERATOR_PASSWORD, both or neither; the users' password policy (8 to 128 characters). */
function operatorPerson(env: Env): Config["bootstrapOperatorPerson"] {
  const email = env.BOOTSTRAP_OPERATOR_EMAIL?.trim();
  const password = env.BOOTSTRAP_OPERATOR_PASSWORD;
  if (Boolean(email) !== Boolean(password))
    throw new ConfigError("BOOTSTRAP_OPERATOR_EMAIL and BOOTSTRAP_OPERATOR_PASSWORD go together");
  if (!email || !password) return undefined;
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new ConfigError(`BOOTSTRAP_OPERATOR_EMAIL must be an email address, got "${email}"`);
  const length = [...password].length;
  if (length < 8 || length > 128)
    throw new ConfigError("BOOTSTRAP_OPERATOR_PASSWORD must be 8 to 128 characters (the password policy)");
  return { email, password };
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, "PORT", 8080, 0, 65535);
  const publicUrl = stripSlash(url(env, "PUBLIC_URL", `http://localhost:${port}`, ["http:", "https:"])!);
  const alg = env.SIGNING_ALG || "RS256";
  if (!SIGNING_ALGS.includes(alg)) throw new ConfigError(`SIGNING_ALG must be RS256, ES256 or EdDSA, got "${alg}"`);
  const opId = env.BOOTSTRAP_OPERATOR_CLIENT_ID;
  const opSecret = env.BOOTSTRAP_OPERATOR_CLIENT_SECRET;
  if (Boolean(opId) !== Boolean(opSecret)) {
    throw new ConfigError("BOOTSTRAP_OPERATOR_CLIENT_ID and BOOTSTRAP_OPERATOR_CLIENT_SECRET go together");
  }
  if (opId && !/^[A-Za-z0-9._-]{3,64}$/.test(opId)) {
    throw new ConfigError("BOOTSTRAP_OPERATOR_CLIENT_ID must be 3-64 characters of A-Z a-z 0-9 . _ -");
  }
  if (opSecret && opSecret.length < 16)
    throw new ConfigError("BOOTSTRAP_OPERATOR_CLIENT_SECRET must be 16 characters or more");
  const person = operatorPerson(env);
  const registryPort = int(env, "REGISTRY_PORT", 8081, 0, 65535);
  const authPort = int(env, "AUTH_PORT", 8082, 0, 65535);
  const usersPort = int(env, "USERS_PORT", 8083, 0, 65535);
  const workerPort = int(env, "WORKER_PORT", 8084, 0, 65535);
  const authUrl = stripSlash(url(env, "PUBLIC_AUTH_URL", publicUrl, ["http:", "https:"])!);
  return {
    port,
    host: env.HOST || "0.0.0.0",
    dataDir: resolve(env.DATA_DIR || "./data"),
    databaseUrl: url(env, "DATABASE_URL", undefined, ["postgres:", "postgresql:"]),
    redisUrl: url(env, "REDIS_URL", undefined, ["redis:", "rediss:"]),
    redisPrefix: env.REDIS_PREFIX || "gh:",
    redisCommandTimeoutMs: int(env, "REDIS_COMMAND_TIMEOUT_MS", 500, 50, 60_000),
    smtpUrl: url(env, "SMTP_URL", undefined, ["smtp:", "smtps:"]),
    smsWebhookUrl: url(env, "SMS_WEBHOOK_URL", undefined, ["http:", "https:"]),
    abuse: {
      pwnedPasswordsUrl: url(env, "PWNED_PASSWORDS_URL", undefined, ["http:", "https:"]),
      smsPerHour: int(env, "SMS_LIMIT_PER_HOUR", 1000, 0, 10_000_000),
      smsPerPrefixPerHour: int(env, "SMS_LIMIT_PER_PREFIX_PER_HOUR", 300, 0, 10_000_000),
    },
    idp: { allowPrivate: flag(env, "IDP_ALLOW_PRIVATE"), timeoutMs: int(env, "IDP_TIMEOUT_MS", 10_000, 1000, 30_000) },
    secretKey: secretKey(env),
    publicBaseUrl: stripSlash(url(env, "PUBLIC_BASE_URL", publicUrl, ["http:", "https:"])!),
    publicGraphUrl: stripSlash(url(env, "PUBLIC_GRAPH_URL", publicUrl, ["http:", "https:"])!),
    publicAuthUrl: authUrl,
    webauthn: webauthnConfig(env, authUrl),
    bootstrapOperator: opId && opSecret ? { clientId: opId, clientSecret: opSecret } : undefined,
    bootstrapOperatorPerson: person,
    accessTokenTtlSeconds: int(env, "ACCESS_TOKEN_TTL", 3600, 60, 86_400),
    authorizationCodeTtlSeconds: int(env, "AUTHORIZATION_CODE_TTL", 60, 60, 600),
    deviceCode: {
      ttlSeconds: int(env, "DEVICE_CODE_TTL", 600, 60, 1800),
      failuresPerAddress: int(env, "DEVICE_CODE_FAILURES_PER_ADDRESS", 20, 1, 100_000),
    },
    loginLimits: {
      perAddressAccount: int(env, "LOGIN_FAILURES_PER_ACCOUNT_ADDRESS", 5, 1, 1000),
      perAccount: int(env, "LOGIN_FAILURES_PER_ACCOUNT", 20, 1, 100_000),
      perAddress: int(env, "LOGIN_FAILURES_PER_ADDRESS", 100, 1, 100_000),
      windowSeconds: int(env, "LOGIN_THROTTLE_WINDOW", 900, 10, 86_400),
    },
    confirmation: {
      emailTtlSeconds: int(env, "CONFIRMATION_EMAIL_TTL", 3600, 60, 7 * 86_400),
      smsTtlSeconds: int(env, "CONFIRMATION_SMS_TTL", 600, 60, 86_400),
      resendLimit: int(env, "CONFIRMATION_RESEND_LIMIT", 3, 1, 100),
      resendWindowSeconds: int(env, "CONFIRMATION_RESEND_WINDOW", 3600, 60, 86_400),
    },
    refreshTokenTtlSeconds: int(env, "REFRESH_TOKEN_TTL", 30 * 86_400, 60, 365 * 86_400),
    refreshIdleTtlSeconds: int(env, "REFRESH_IDLE_TTL", 7 * 86_400, 60, 365 * 86_400),
    signingAlg: alg as SigningAlg,
    signingKeyRotationSeconds: int(env, "SIGNING_KEY_ROTATION_DAYS", 90, 0, 3650) * 86_400,
    logLevel: env.LOG_LEVEL || "info",
    serviceUrls: {
      registry: stripSlash(url(env, "REGISTRY_URL", `http://127.0.0.1:${registryPort}`, ["http:", "https:"])!),
      auth: stripSlash(url(env, "AUTH_URL", `http://127.0.0.1:${authPort}`, ["http:", "https:"])!),
      users: stripSlash(url(env, "USERS_URL", `http://127.0.0.1:${usersPort}`, ["http:", "https:"])!),
    },
    servicePorts: { registry: registryPort, auth: authPort, users: usersPort, worker: workerPort },
    trustedProxies: trustedProxies(env),
    bodyLimitBytes: int(env, "BODY_LIMIT_BYTES", 64 * 1024, 1024, 16 * 1024 * 1024),
    requestTimeoutSeconds: int(env, "REQUEST_TIMEOUT", 20, 2, 30),
    assertionsCacheTtlSeconds: int(env, "ASSERTIONS_CACHE_TTL", 30, 0, 3600),
    shutdownDelaySeconds: int(env, "SHUTDOWN_DELAY_S", 5, 0, 60),
    httpKeepAliveSeconds: int(env, "HTTP_KEEP_ALIVE_S", 4, 1, 600),
    passwordHashParams: passwordHashParams(env),
    webhooks: {
      allowPrivate: flag(env, "WEBHOOK_ALLOW_PRIVATE"),
      retryBaseMs: int(env, "WEBHOOK_RETRY_BASE_MS", 5000, 10, 3_600_000),
    },
  };
}
