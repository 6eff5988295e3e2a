import { describe, expect, it } from "vitest";
import { guardedFetch, urlProblem, UpstreamUnavailable } from "./outbound.ts";

describe("the outbound policy of identity providers (no SSRF)", () => {
  const prod = { allowPrivate: false };
  const dev = { allowPrivate: true };
  it("takes public https and a loopback host (section 11: development); refuses http elsewhere, private addresses, credentials and fragments", () => {
    expect(urlProblem("https://accounts.google.com", prod)).toBeUndefined();
    for (const url of ["http://127.0.0.1:8080", "https://127.0.0.1", "https://localhost/x", "http://[::1]:3000/x"])
      expect(urlProblem(url, prod), url).toBeUndefined();
    for (const url of [
      "http://accounts.google.com",
      "ftp://127.0.0.1",
      "https://10.1.2.3",
      "https://192.168.0.1",
      "https://169.254.169.254/latest",
      "https://[fd00::1]/",
      "https://u:p@example.com",
      "https://example.com/#x",
      "ftp://example.com",
      "not a url",
    ])
      expect(urlProblem(url, prod), url).toBeTypeOf("string");
  });

  it("in development (IDP_ALLOW_PRIVATE=true) takes http on a loopback host and private addresses, still not http elsewhere", () => {
    expect(urlProblem("http://127.0.0.1:8080", dev)).toBeUndefined();
    expect(urlProblem("http://localhost:3000/x", dev)).toBeUndefined();
    expect(urlProblem("http://[::1]:3000/x", dev)).toBeUndefined();
    expect(urlProblem("https://10.0.0.1", dev)).toBeUndefined();
    expect(urlProblem("http://10.0.0.1", dev)).toBeTypeOf("string");
    expect(urlProblem("http://example.com", dev)).toBeTypeOf("string");
  });

  it("refuses a host name that does not resolve, or resolves inside, before connecting", async () => {
    const f = guardedFetch({ allowPrivate: false, timeoutMs: 1000 });
    await expect(f("https://localhost.localdomain.invalid/", {})).rejects.toBeInstanceOf(UpstreamUnavailable);
    await expect(f("https://10.0.0.1/", {})).rejects.toThrow(/private/);
  });
});
