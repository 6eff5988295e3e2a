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
  });
  it("derives the public roots from PUBLIC_URL and lets each be overridden", () => {
    const c = loadConfig({ PUBLIC_URL: "https://id.example.com/", PUBLIC_AUTH_URL: "https://auth.example.com" });
    expect(c.publicBaseUrl).toBe("https://id.example.com");
    expect(c.publicGraphUrl).toBe("https://id.example.com");
    expect(c.publicAuthUrl).toBe("https://auth.example.com");
  });
  it("refuses malformed values with the variable's name", () => {
    expect(() => loadConfig({ PORT: "80a" })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ BOOTSTRAP_OPERATOR_CLIENT_ID: "op" })).toThrow(/go together/);
    expect(() => loadConfig({ SIGNING_ALG: "HS256" })).toThrow(/SIGNING_ALG/);
    expect(() => loadConfig({ BOOTSTRAP_OPERATOR_CLIENT_ID: "op", BOOTSTRAP_OPERATOR_CLIENT_SECRET: "x".repeat(20) })).toThrow(/3-64/);
    expect(() => loadConfig({ BOOTSTRAP_OPERATOR_CLIENT_ID: "operator", BOOTSTRAP_OPERATOR_CLIENT_SECRET: "short" })).toThrow(/16/);
  });
});
