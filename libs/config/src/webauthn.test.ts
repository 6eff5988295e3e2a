import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./index.ts";

describe("WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS", () => {
  it("default to {auth_url}'s host and origin (localhost for development)", () => {
    expect(loadConfig({}).webauthn).toEqual({ rpId: "localhost", origins: ["http://localhost:8080"] });
    expect(loadConfig({ PUBLIC_AUTH_URL: "https://id.example.com/auth" }).webauthn).toEqual({
      rpId: "id.example.com",
      origins: ["https://id.example.com"],
    });
  });

  it("take a parent domain as RP id and more origins under it", () => {
    const env = {
      PUBLIC_URL: "https://id.example.com",
      WEBAUTHN_RP_ID: "Example.com",
      WEBAUTHN_ORIGINS: "https://app.example.com, https://example.com:8443/",
    };
    expect(loadConfig(env).webauthn).toEqual({
      rpId: "example.com",
      origins: ["https://id.example.com", "https://app.example.com", "https://example.com:8443"],
    });
  });

  it("refuse an RP id no origin can use, and a garbled origin", () => {
    expect(() => loadConfig({ PUBLIC_URL: "https://id.example.com", WEBAUTHN_RP_ID: "other.com" })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ WEBAUTHN_RP_ID: "https://localhost" })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBAUTHN_ORIGINS: "https://elsewhere.test" })).toThrow(/not https:\/\/elsewhere.test/);
    expect(() => loadConfig({ WEBAUTHN_ORIGINS: "not a url" })).toThrow(ConfigError);
  });
});
