import { randomBytes } from "node:crypto";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { errorFacts } from "@gatehouse/errors";
import { createLogger } from "@gatehouse/logging";
import { AuthService } from "@gatehouse/proto";
import { KeyRing } from "@gatehouse/secrets";
import { authnInterceptor, observeInterceptor } from "./interceptors.ts";
import { InternalTokens } from "./internal-token.ts";
import { kPrincipal, type Principal } from "./principal.ts";
import { directTransport } from "./direct-transport.ts";
import { callerInterceptors, inProcessTransport, type Routes } from "./transports.ts";

// A real service (the AuthService contract with a tiny implementation) behind the real interceptors.
const internal = new InternalTokens(new KeyRing(randomBytes(32)));
const seen: Principal[] = [];
const routes: Routes = (r) =>
  r.service(AuthService, {
    async getJwks(_req, ctx) {
      seen.push(ctx.values.get(kPrincipal)!);
      return { jwksJson: "{}" };
    },
    async getServerMetadata() {
      throw new Error("driver exploded: password=hunter2");
    },
    // What pg and PGlite throw for a NUL byte in a text parameter (SQLSTATE 22021), here wrapped by a store.
    async endSession() {
      const driver = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: "22021" });
      throw new Error("store failed", { cause: driver });
    },
  });
const operator: Principal = {
  subject: "op",
  clientId: "op",
  scopes: new Set(["apps:write"]),
  internal: false,
  token: "op-token",
  claims: {},
};
const interceptors = [
  observeInterceptor(createLogger("test", "silent"), "test"),
  authnInterceptor({
    policy: {
      getJwks: ["internal", "apps:write"],
      getServerMetadata: ["internal"],
      introspectToken: ["admin"],
      endSession: ["internal"],
    },
    internal,
    verifyAccessToken: async (t) => (t === "op-token" ? operator : undefined),
  }),
];
const codeOf = async (p: Promise<unknown>) =>
  ConnectError.from(
    await p.then(
      () => undefined,
      (e: unknown) => e,
    ),
  ).code;

// The same behaviour through the router transport (serialized) and the direct one (npm start).
describe.each([
  ["router transport", inProcessTransport],
  ["direct transport", directTransport],
])("over the %s", (_name, transport) => {
  const anonymous = createClient(AuthService, transport(routes, interceptors));
  const asService = createClient(AuthService, transport(routes, interceptors, callerInterceptors(internal, "tester")));

  describe("authn interceptor", () => {
    it("refuses a call without a bearer token or with a bad one", async () => {
      expect(await codeOf(anonymous.getJwks({}))).toBe(Code.Unauthenticated);
      expect(await codeOf(anonymous.getJwks({}, { headers: { authorization: "Bearer nope" } }))).toBe(
        Code.Unauthenticated,
      );
      expect(await codeOf(anonymous.getJwks({}, { headers: { authorization: "Basic abc" } }))).toBe(
        Code.Unauthenticated,
      );
    });
    it("admits internal tokens where the policy lists internal, with the principal in context", async () => {
      await asService.getJwks({});
      expect(seen.at(-1)).toMatchObject({ subject: "service:tester", internal: true });
    });
    it("admits access tokens with a listed scope and refuses the rest", async () => {
      await anonymous.getJwks({}, { headers: { authorization: "Bearer op-token" } });
      expect(seen.at(-1)?.subject).toBe("op");
      const err = await anonymous
        .getServerMetadata({}, { headers: { authorization: "Bearer op-token" } })
        .catch((e: unknown) => e);
      expect(ConnectError.from(err).code).toBe(Code.PermissionDenied);
      expect(errorFacts(err).reason).toBe("INSUFFICIENT_SCOPE");
    });
    it("reads the scheme case-insensitively, as the gateway does (RFC 7235)", async () => {
      for (const authorization of ["bearer op-token", "BEARER op-token", "Bearer  op-token"]) {
        await anonymous.getJwks({}, { headers: { authorization } });
        expect(seen.at(-1)?.subject).toBe("op");
      }
    });
    it("refuses methods the policy does not list, even to services", async () => {
      const err = await asService.introspectToken({}).catch((e: unknown) => e);
      expect(ConnectError.from(err).code).toBe(Code.PermissionDenied);
      expect(await codeOf(asService.revokeToken({}))).toBe(Code.PermissionDenied);
    });
  });

  describe("observe interceptor", () => {
    it("turns an unexpected error into a bare INTERNAL without its message", async () => {
      const err = ConnectError.from(await asService.getServerMetadata({}).catch((e: unknown) => e));
      expect(err.code).toBe(Code.Internal);
      expect(err.message).not.toContain("hunter2");
      expect(errorFacts(err).reason).toBe("INTERNAL");
    });
    it("turns text PostgreSQL cannot store (22021, 22P05) into the client's error, not INTERNAL", async () => {
      const err = ConnectError.from(await asService.endSession({}).catch((e: unknown) => e));
      expect(err.code).toBe(Code.InvalidArgument);
      expect(errorFacts(err).reason).toBe("MALFORMED_REQUEST");
      expect(err.message).not.toContain("0x00");
    });
  });
});
