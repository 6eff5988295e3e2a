import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Principal } from "@gatehouse/rpc";
import { checkCodeVerifier } from "../http/code-verifier.ts";
import { redirectUriAllowed, withResponseParams } from "./redirect-uri.ts";

const REGISTERED = [
  "https://app.example/cb",
  "http://127.0.0.1/native",
  "http://[::1]:4000/v6?x=1",
  "com.example.app:/oauth",
];

describe("redirect URI matching", () => {
  it("is a simple string comparison", () => {
    expect(redirectUriAllowed("https://app.example/cb", REGISTERED)).toBe(true);
    expect(redirectUriAllowed("com.example.app:/oauth", REGISTERED)).toBe(true);
    for (const uri of [
      "https://app.example/cb/",
      "https://APP.example/cb",
      "https://app.example/cb?a",
      "https://app.example:443/cb",
      "com.example.app:/oauth/x",
    ]) {
      expect(redirectUriAllowed(uri, REGISTERED), uri).toBe(false);
    }
  });

  it("lets a registered loopback IP URI take any port, nothing else", () => {
    expect(redirectUriAllowed("http://127.0.0.1:51234/native", REGISTERED)).toBe(true);
    expect(redirectUriAllowed("http://[::1]:1/v6?x=1", REGISTERED)).toBe(true);
    expect(redirectUriAllowed("http://[::1]/v6?x=1", REGISTERED)).toBe(true);
    for (const uri of [
      "http://127.0.0.1:51234/native/",
      "http://127.0.0.1:51234/Native",
      "http://localhost:51234/native",
      "http://[::1]:1/native",
      "http://127.0.0.1:0/native",
      "http://127.0.0.1:65536/native",
      "http://127.0.0.1:5/native#f",
    ]) {
      expect(redirectUriAllowed(uri, REGISTERED), uri).toBe(false);
    }
    // A registered https URI never gets the port rule.
    expect(redirectUriAllowed("https://app.example:8443/cb", REGISTERED)).toBe(false);
  });

  it("appends the response to the registered query as it is", () => {
    expect(withResponseParams("https://a.example/cb", { code: "c d", state: undefined })).toBe(
      "https://a.example/cb?code=c+d",
    );
    expect(withResponseParams("https://a.example/cb?x=%2F", { code: "c" })).toBe("https://a.example/cb?x=%2F&code=c");
    // RP-initiated logout without state: the registered URI itself, no trailing "?".
    expect(withResponseParams("https://a.example/cb", { state: undefined })).toBe("https://a.example/cb");
    expect(withResponseParams("https://a.example/cb?x=1", { state: undefined })).toBe("https://a.example/cb?x=1");
  });
});

describe("CHALLENGE_CODE_TOKEN verifier", () => {
  const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const principal = (claims: Record<string, unknown>) =>
    ({ subject: "u", clientId: "c", scopes: new Set<string>(), internal: false, token: "t", claims }) as Principal;

  it("needs the matching verifier when the token carries a challenge", () => {
    const p = principal({ code_challenge: challenge });
    expect(checkCodeVerifier(p, verifier, true)).toBe("verified");
    expect(checkCodeVerifier(p, `${verifier}x`, true)).toBe("refused");
    expect(checkCodeVerifier(p, undefined, true)).toBe("refused");
    expect(checkCodeVerifier(p, undefined, false)).toBe("none");
  });

  it("ignores verifiers for ordinary tokens", () => {
    expect(checkCodeVerifier(principal({}), verifier, true)).toBe("none");
  });
});
