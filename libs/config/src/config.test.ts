import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./index.ts";

describe("loadConfig", () => {
  it("gives the embedded defaults with no environment", () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.redisUrl).toBeUndefined();
    expect(c.publicAuthUrl).toBe("http://localhost:8080");
    expect(c.accessTokenTtlSeconds).toBe(3600);
    expect(c.refreshTokenTtlSeconds).toBe(30 * 86400);
    expect(c.authorizationCodeTtlSeconds).toBe(60);
    expect(c.loginLimits).toEqual({ perAddressAccount: 5, perAccount: 20, perAddress: 100, windowSeconds: 900 });
    expect(c.trustedProxies).toEqual([]);
    expect(c.confirmation.resendLimit).toBe(3);
    expect(loadConfig({ LOGIN_FAILURES_PER_ACCOUNT: "10" }).loginLimits.perAccount).toBe(10);
  });
  it("takes a SECRET_KEY of 32+ bytes (base64url, base64 or hex) and refuses a shorter or garbled one as configuration", () => {
    const b64url = "Jq3hO0h7g8U7Yw1t1Yx8cE0sZ7rQkQ2pY2yq8mO9bX4";
    expect(loadConfig({ SECRET_KEY: b64url }).secretKey).toBe(b64url);
    expect(loadConfig({ SECRET_KEY: "a".repeat(64) }).secretKey).toBe("a".repeat(64));
    expect(loadConfig({ SECRET_KEY: Buffer.alloc(32, 7).toString("base64") }).secretKey).toBeDefined();
    for (const bad of [
      "tooshort",
      "Jq3hO0h7g8U7Yw1t1Yx8cE0sZ7rQkQ2pY2yq8mO9b",
      "not a key at all, not a key at all, not a key!",
    ]) {
      expect(() => loadConfig({ SECRET_KEY: bad }), bad).toThrow(ConfigError);
    }
  });
  it("derives the public roots from PUBLIC_URL and lets each be overridden", () => {
    const c = loadConfig({ PUBLIC_URL: "https://id.example.com/", PUBLIC_AUTH_URL: "https://auth.example.com" });
    expect(c.publicBaseUrl).toBe("https://id.example.com");
    expect(c.publicGraphUrl).toBe("https://id.example.com");
    expect(c.publicAuthUrl).toBe("https://auth.example.com");
  });
  it("gives each service process a port and a URL, overridable one by one", () => {
    const c = loadConfig({});
    expect(c.servicePorts).toEqual({ registry: 8081, auth: 8082, users: 8083, worker: 8084 });
    expect(c.serviceUrls).toEqual({
      registry: "http://127.0.0.1:8081",
      auth: "http://127.0.0.1:8082",
      users: "http://127.0.0.1:8083",
    });
    const o = loadConfig({ USERS_PORT: "9093", WORKER_PORT: "9094", USERS_URL: "http://users:8083/" });
    expect(o.servicePorts).toMatchObject({ users: 9093, worker: 9094 });
    expect(o.serviceUrls.users).toBe("http://users:8083");
    expect(loadConfig({ USERS_PORT: "9093" }).serviceUrls.users).toBe("http://127.0.0.1:9093");
  });
  it("signs with RS256 unless SIGNING_ALG chooses ES256 or EdDSA; rotates keys every 90 days unless told", () => {
    expect(loadConfig({}).signingAlg).toBe("RS256");
    expect(loadConfig({ SIGNING_ALG: "ES256" }).signingAlg).toBe("ES256");
    expect(loadConfig({ SIGNING_ALG: "EdDSA" }).signingAlg).toBe("EdDSA");
    expect(loadConfig({}).signingKeyRotationSeconds).toBe(90 * 86_400);
    expect(loadConfig({ SIGNING_KEY_ROTATION_DAYS: "0" }).signingKeyRotationSeconds).toBe(0);
    expect(() => loadConfig({ SIGNING_ALG: "rs256" })).toThrow(/RS256, ES256 or EdDSA/);
  });
  it("gives one Redis command 500 ms unless REDIS_COMMAND_TIMEOUT_MS says otherwise (50 ms to 60 s)", () => {
    expect(loadConfig({}).redisCommandTimeoutMs).toBe(500);
    expect(loadConfig({ REDIS_COMMAND_TIMEOUT_MS: "2000" }).redisCommandTimeoutMs).toBe(2000);
    expect(() => loadConfig({ REDIS_COMMAND_TIMEOUT_MS: "10" })).toThrow(/REDIS_COMMAND_TIMEOUT_MS/);
  });
  it("refuses malformed values with the variable's name", () => {
    expect(() => loadConfig({ USERS_PORT: "70000" })).toThrow(/USERS_PORT/);
    expect(() => loadConfig({ WORKER_PORT: "x" })).toThrow(/WORKER_PORT/);
    expect(() => loadConfig({ USERS_URL: "grpc://users" })).toThrow(/USERS_URL/);
    expect(() => loadConfig({ PORT: "80a" })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ BOOTSTRAP_OPERATOR_CLIENT_ID: "op" })).toThrow(/go together/);
    expect(() => loadConfig({ SIGNING_ALG: "HS256" })).toThrow(/SIGNING_ALG/);
    expect(() => loadConfig({ AUTHORIZATION_CODE_TTL: "900" })).toThrow(/AUTHORIZATION_CODE_TTL/);
    expect(() =>
      loadConfig({ BOOTSTRAP_OPERATOR_CLIENT_ID: "op", BOOTSTRAP_OPERATOR_CLIENT_SECRET: "x".repeat(20) }),
    ).toThrow(/3-64/);
    expect(() =>
      loadConfig({ BOOTSTRAP_OPERATOR_CLIENT_ID: "operator", BOOTSTRAP_OPERATOR_CLIENT_SECRET: "short" }),
    ).toThrow(/16/);
  });
  it("reads TRUSTED_PROXIES as addresses and CIDRs, and refuses the old TRUST_PROXY", () => {
    expect(loadConfig({ TRUSTED_PROXIES: "10.0.0.0/8, 192.0.2.7 2001:db8::/32,loopback" }).trustedProxies).toEqual([
      "10.0.0.0/8",
      "192.0.2.7",
      "2001:db8::/32",
      "loopback",
    ]);
    for (const bad of ["10.0.0.0/33", "2001:db8::/129", "proxy.example.com", "10.0.0.1/8/1", "10.0.0/8", "*"]) {
      expect(() => loadConfig({ TRUSTED_PROXIES: bad }), bad).toThrow(/TRUSTED_PROXIES/);
    }
    expect(() => loadConfig({ TRUST_PROXY: "true" })).toThrow(/TRUSTED_PROXIES/);
  });
  it("hashes passwords with the production parameters unless the test suite asks for cheap ones", () => {
    expect(loadConfig({}).passwordHashParams).toBeUndefined();
    expect(loadConfig({ NODE_ENV: "production" }).passwordHashParams).toBeUndefined();
    expect(loadConfig({ NODE_ENV: "test", TEST_PASSWORD_HASH: "cheap" }).passwordHashParams).toEqual({
      memoryCost: 256,
      timeCost: 1,
      parallelism: 1,
    });
    // A server never starts with cheap hashes: outside NODE_ENV=test the variable is refused.
    expect(() => loadConfig({ TEST_PASSWORD_HASH: "cheap" })).toThrow(/TEST_PASSWORD_HASH is for the test suite only/);
    expect(() => loadConfig({ NODE_ENV: "production", TEST_PASSWORD_HASH: "cheap" })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: "test", TEST_PASSWORD_HASH: "fast" })).toThrow(/must be "cheap"/);
  });
});
