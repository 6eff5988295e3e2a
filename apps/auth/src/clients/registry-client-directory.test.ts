import { randomBytes } from "node:crypto";
import { createClient, type ServiceImpl } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { domainError } from "@gatehouse/errors";
import { createLogger } from "@gatehouse/logging";
import { ClientKind, RegistryService } from "@gatehouse/proto";
import {
  authnInterceptor,
  callerInterceptors,
  inProcessTransport,
  InternalTokens,
  observeInterceptor,
} from "@gatehouse/rpc";
import { KeyRing } from "@gatehouse/secrets";
import { failure, sleep } from "../../test/harness.ts";
import { registryClientDirectory } from "./registry-client-directory.ts";

// A tiny registry: AuthenticateClient only, over the in-process transport with
// the real authn interceptor, counting the calls that reach it.
function fakeRegistry(opts: { down?: boolean } = {}) {
  const secrets = new Map([
    ["app1", "s3cret"],
    ["op", "op-secret"],
  ]);
  const stats = { calls: 0 };
  const impl: Partial<ServiceImpl<typeof RegistryService>> = {
    async authenticateClient(req) {
      stats.calls++;
      if (opts.down) throw domainError("SERVICE_UNAVAILABLE", "database down");
      if (secrets.get(req.clientId) !== req.clientSecret)
        throw domainError("INVALID_CLIENT", "client authentication failed");
      const operator = req.clientId === "op";
      return {
        clientId: req.clientId,
        kind: operator ? ClientKind.OPERATOR : ClientKind.APPLICATION,
        allowedScopes: operator ? ["apps:write", "admin"] : ["users:access"],
        redirectUris: operator ? [] : ["https://app1.example/cb"],
        secretVersion: 3,
      };
    },
  };
  const logger = createLogger("registry-fake", "silent");
  const keys = new KeyRing(randomBytes(32));
  const internal = new InternalTokens(keys);
  const routes = (r: Parameters<Parameters<typeof inProcessTransport>[0]>[0]) => {
    r.service(RegistryService, impl);
  };
  const server = [
    observeInterceptor(logger, "registry"),
    authnInterceptor({ policy: { authenticateClient: ["internal"] }, internal }),
  ];
  const client = (caller: InternalTokens) =>
    createClient(RegistryService, inProcessTransport(routes, server, callerInterceptors(caller, "auth")));
  return {
    stats,
    secrets,
    client: client(internal),
    /** A caller whose service token the registry does not accept (another SECRET_KEY). */
    strangerClient: client(new InternalTokens(new KeyRing(randomBytes(32)))),
  };
}

describe("registryClientDirectory", () => {
  it("maps the registry's answer", async () => {
    const reg = fakeRegistry();
    const dir = registryClientDirectory(reg.client);
    expect(await dir.authenticate("app1", "s3cret")).toEqual({
      clientId: "app1",
      kind: "application",
      applicationId: "app1",
      allowedScopes: ["users:access"],
      redirectUris: ["https://app1.example/cb"],
      secretVersion: 3,
    });
    expect(await dir.authenticate("op", "op-secret")).toMatchObject({
      clientId: "op",
      kind: "operator",
      allowedScopes: ["apps:write", "admin"],
    });
  });

  it("answers a repeated successful authentication from its cache: one RPC", async () => {
    const reg = fakeRegistry();
    const dir = registryClientDirectory(reg.client);
    await dir.authenticate("app1", "s3cret");
    const again = await dir.authenticate("app1", "s3cret");
    expect(again?.clientId).toBe("app1");
    expect(reg.stats.calls).toBe(1);
  });

  it("never caches a failure: a wrong secret is undefined and asks the registry every time", async () => {
    const reg = fakeRegistry();
    const dir = registryClientDirectory(reg.client);
    expect(await dir.authenticate("app1", "wrong")).toBeUndefined();
    expect(await dir.authenticate("app1", "wrong")).toBeUndefined();
    expect(await dir.authenticate("nobody", "s3cret")).toBeUndefined();
    expect(reg.stats.calls).toBe(3);
  });

  it("keys the cache by the secret: a cached success does not let another secret in", async () => {
    const reg = fakeRegistry();
    const dir = registryClientDirectory(reg.client);
    expect(await dir.authenticate("app1", "s3cret")).toBeDefined();
    expect(await dir.authenticate("app1", "s3cret-but-longer")).toBeUndefined();
    // After a rotation the new secret works at once (a miss asks the registry).
    reg.secrets.set("app1", "rotated");
    expect(await dir.authenticate("app1", "rotated")).toBeDefined();
    expect(reg.stats.calls).toBe(3);
  });

  it("asks again once cacheMs has passed, so a rotated-out secret stops working", async () => {
    const reg = fakeRegistry();
    const dir = registryClientDirectory(reg.client, { cacheMs: 50 });
    await dir.authenticate("app1", "s3cret");
    reg.secrets.set("app1", "rotated");
    expect(await dir.authenticate("app1", "s3cret")).toBeDefined();
    await sleep(80);
    expect(await dir.authenticate("app1", "s3cret")).toBeUndefined();
    expect(reg.stats.calls).toBe(2);
  });

  it("forget drops a client's cached secrets at once, also an answer that was in flight", async () => {
    const reg = fakeRegistry();
    const dir = registryClientDirectory(reg.client);
    await dir.authenticate("app1", "s3cret");
    await dir.authenticate("op", "op-secret");
    reg.secrets.set("app1", "rotated");
    dir.forget!("app1");
    expect(await dir.authenticate("app1", "s3cret")).toBeUndefined();
    expect(await dir.authenticate("op", "op-secret")).toBeDefined();
    expect(reg.stats.calls).toBe(3);
    // An authentication that started before the rotation's notice is answered but not cached.
    reg.secrets.set("app1", "third");
    const inFlight = dir.authenticate("app1", "third");
    dir.forget!("app1");
    expect(await inFlight).toBeDefined();
    reg.secrets.set("app1", "fourth");
    expect(await dir.authenticate("app1", "third")).toBeUndefined();
  });

  it("lets other registry failures through instead of calling them a bad secret", async () => {
    const down = fakeRegistry({ down: true });
    expect((await failure(registryClientDirectory(down.client).authenticate("app1", "s3cret"))).reason).toBe(
      "SERVICE_UNAVAILABLE",
    );
    const reg = fakeRegistry();
    expect((await failure(registryClientDirectory(reg.strangerClient).authenticate("app1", "s3cret"))).reason).toBe(
      "UNAUTHENTICATED",
    );
  });
});
