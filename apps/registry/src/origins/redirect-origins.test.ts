import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { application, backends, startRegistry, validApplicationJson, type Harness } from "../../test/harness.ts";
import { browserOrigin, redirectOriginsPolicy } from "./redirect-origins-service.ts";

describe("browserOrigin", () => {
  it.each([
    ["https://Shop.Example.com:443/callback?x=1", "https://shop.example.com"],
    ["http://127.0.0.1:5173/cb", "http://127.0.0.1:5173"],
    ["http://[::1]/cb", "http://[::1]"],
    ["https://xn--bcher-kva.example/cb", "https://xn--bcher-kva.example"],
    ["com.example.app:/oauth2redirect", undefined],
    ["not a uri", undefined],
  ])("%s -> %s", (uri, origin) => expect(browserOrigin(uri)).toBe(origin));
});

describe.each(backends)("RedirectOriginsService on %s", (_name, open) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startRegistry(open);
  });
  afterAll(() => h.close());

  it("lists the distinct browser origins of every application's redirect URIs, and announces each new application", async () => {
    expect((await h.origins.listRedirectOrigins({})).origins).toEqual([]);
    const a = validApplicationJson();
    a.redirectUris = [
      "https://shop.example.com/callback",
      "https://shop.example.com/other",
      "com.example.shop:/cb",
      "http://127.0.0.1:8400/cb",
    ];
    const b = validApplicationJson();
    b.redirectUris = ["https://spa.example.org/"];
    const first = (await h.operator.createApplication({ application: application(a) })).application!;
    const second = (await h.operator.createApplication({ application: application(b) })).application!;
    expect((await h.origins.listRedirectOrigins({})).origins).toEqual([
      "http://127.0.0.1:8400",
      "https://shop.example.com",
      "https://spa.example.org",
    ]);
    expect(h.notices).toEqual(
      expect.arrayContaining([
        ["application", first.id],
        ["application", second.id],
      ]),
    );
  });

  it("answers Gatehouse services only (internal scope)", () => {
    expect(redirectOriginsPolicy).toEqual({ listRedirectOrigins: ["internal"] });
  });
});
