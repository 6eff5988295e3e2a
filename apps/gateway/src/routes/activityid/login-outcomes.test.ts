import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { createClient, createRouterTransport, type ServiceImpl } from "@connectrpc/connect";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { domainError } from "@gatehouse/errors";
import { createLogger } from "@gatehouse/logging";
import {
  AuthService,
  LoginOutcomeSchema,
  MfaRequiredSchema,
  MfaService,
  RegistryService,
  UsersService,
  type LoginOutcome,
} from "@gatehouse/proto";
import { USERS_ACCESS_SCOPE, type Principal } from "@gatehouse/rpc";
import { createGateway } from "../../app.ts";

// The JSON side of the login's outcome table and of the error handler, with
// the users service faked: each outcome (and each error) of a login as the
// routes answer it. The hosted pages are exercised end to end in apps/standalone.

const BASE = "https://id.example.com";
const loggedIn = {
  user: { id: "1234567890123456", pulseId: "p", ids: { email: { value: "a@example.com", confirmed: true } } },
  session: {
    accessToken: "at",
    refreshToken: "rt",
    expiresIn: 3600n,
    expiresAtMs: 1n,
    scope: "profile offline_access",
    connectState: "connected",
  },
};
const outcome = (o: MessageInitShape<typeof LoginOutcomeSchema>["outcome"]) =>
  create(LoginOutcomeSchema, { outcome: o });

/** What the fake users service answers for a login of `email`. */
const LOGINS: Record<string, LoginOutcome | Error> = {
  "ok@example.com": outcome({ case: "session", value: loggedIn }),
  "incomplete@example.com": outcome({
    case: "profileIncomplete",
    value: { missingFields: ["name", "birthday"], grant: { case: "session", value: loggedIn } },
  }),
  "enroll@example.com": outcome({
    case: "mfaRequired",
    value: { mfaToken: "t".repeat(43), methods: ["totp"], enroll: true },
  }),
  "terms@example.com": outcome({
    case: "termsRequired",
    value: {
      termsToken: "tok",
      assertions: [
        {
          key: "tos",
          version: "2",
          displayName: { en: "Terms", es: "Condiciones" },
          type: "terms",
          typology: "consumer",
          property: "default",
          mandatory: true,
        },
      ],
    },
  }),
  "code@example.com": outcome({ case: "authorizationCode", value: { code: "c", expiresIn: 60n } }),
  "throttled@example.com": domainError("RATE_LIMITED", undefined, { metadata: { retry_after: "120" } }),
  "from@example.com": domainError("PERMISSION_DENIED", "From is not an entry point of this application"),
};

describe("login outcomes over JSON", () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    const users: Partial<ServiceImpl<typeof UsersService>> = {
      async loginUser(req) {
        const answer = LOGINS[req.email];
        if (!answer) throw domainError("INVALID_CREDENTIALS");
        if (answer instanceof Error) throw answer;
        return { outcome: answer };
      },
      async updateUser() {
        throw domainError("MFA_REQUIRED", undefined, {
          violations: [{ field: "object.mfaCode", code: "required" }],
          details: [{ desc: MfaRequiredSchema, value: create(MfaRequiredSchema, { methods: ["totp"] }) }],
        });
      },
    };
    const mfa: Partial<ServiceImpl<typeof MfaService>> = {
      async completeMfaLogin() {
        throw domainError("MFA_CODE_INVALID", undefined, { violations: [{ field: "code", code: "invalid_value" }] });
      },
    };
    const principal = (subject: string): Principal => ({
      subject,
      clientId: "100_shop",
      scopes: new Set([USERS_ACCESS_SCOPE]),
      internal: false,
      token: subject,
      claims: {},
    });
    app = await createGateway(
      {
        registry: createClient(
          RegistryService,
          createRouterTransport(() => {}),
        ),
        auth: createClient(
          AuthService,
          createRouterTransport(() => {}),
        ),
        users: createClient(
          UsersService,
          createRouterTransport((r) => r.service(UsersService, users)),
        ),
        mfa: createClient(
          MfaService,
          createRouterTransport((r) => r.service(MfaService, mfa)),
        ),
        verifyAccessToken: async (token) =>
          token === "app" ? principal("100_shop") : token === "user" ? principal("42") : undefined,
        config: { publicBaseUrl: BASE, publicGraphUrl: BASE, publicAuthUrl: BASE, bodyLimitBytes: 65536 },
        ready: async () => true,
      },
      createLogger("gateway-test", "silent"),
    );
  });
  afterAll(() => app.close());

  const headers = (token: string) => ({
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    from: "100_shop_web",
    "accept-language": "es",
  });
  const login = (email: string, query = "") =>
    app.inject({
      method: "POST",
      url: `/activityid/v1/user/access${query}`,
      headers: headers("app"),
      payload: JSON.stringify({
        actor: { id: "100_shop", objectType: "application" },
        verb: "access",
        object: {
          objectType: "user",
          password: "correct horse battery",
          ids: { email: { objectType: "user_id", value: email } },
        },
        source: { id: "pc", objectType: "device" },
      }),
    });

  it("200 and 206 carry the session and are never stored; 206 lists each missing field", async () => {
    const ok = await login("ok@example.com");
    expect(ok.statusCode).toBe(200);
    expect(ok.headers["cache-control"]).toBe("no-store");
    expect(ok.json().content.session_info).toMatchObject({
      access_token: "at",
      refresh_token: "rt",
      login_status: { uid: 1234567890123456, connect_state: "connected" },
    });
    const partial = await login("incomplete@example.com", "?sc=true");
    expect(partial.statusCode).toBe(206);
    expect(partial.headers["cache-control"]).toBe("no-store");
    expect(partial.json().content.session_info.access_token).toBe("at");
    expect(partial.json().errors).toMatchObject({
      code: "account_incomplete",
      message: "Faltan datos obligatorios de la cuenta.",
    });
    expect(partial.json().errors.items).toEqual([
      { field: "object.datas.name", code: "required", message: "Este campo es obligatorio." },
    ]);
  });

  it("428 says enroll as a boolean; 451 lists the assertions in the request's language with the terms page's link", async () => {
    const mfa = await login("enroll@example.com");
    expect(mfa.statusCode).toBe(428);
    expect(mfa.json().content.mfa).toEqual({ token: "t".repeat(43), methods: ["totp"], enroll: true });
    const terms = await login("terms@example.com");
    expect(terms.statusCode).toBe(451);
    expect(terms.headers["cache-control"]).toBe("no-store");
    expect(terms.json().content).toEqual({
      url: `${BASE}/activityid/v1/user/terms?token=tok`,
      assertions: {
        objectType: "assertions",
        items: [
          {
            objectType: "assertion",
            key: "tos",
            version: "2",
            displayName: "Condiciones",
            type: "terms",
            mandatory: true,
            typology: "consumer",
            property: "default",
          },
        ],
      },
    });
  });

  it("errors stay errors: 403 for credentials and From, 429 with Retry-After, 500 for a code no JSON route asked for", async () => {
    expect((await login("nobody@example.com")).json().errors.code).toBe("invalid_credentials");
    const from = await login("from@example.com");
    expect(from.statusCode).toBe(403);
    expect(from.json().errors).toMatchObject({
      code: "permission_denied",
      details: "From is not an entry point of this application",
    });
    const throttled = await login("throttled@example.com");
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers["retry-after"]).toBe("120");
    expect((await login("code@example.com")).statusCode).toBe(500);
  });

  it("a wrong MFA code names its field; the step-up's 428 carries content.mfa and object.mfaCode", async () => {
    const wrong = await app.inject({
      method: "POST",
      url: "/activityid/v1/user/access/mfa",
      headers: headers("app"),
      payload: JSON.stringify({ token: "t".repeat(43), code: "000000" }),
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().errors).toMatchObject({
      code: "mfa_code_invalid",
      details: "code: invalid_value",
      items: [expect.objectContaining({ field: "code", code: "invalid_value" })],
    });
    const stepUp = await app.inject({
      method: "PATCH",
      url: "/activityid/v1/user/update/42",
      headers: headers("user"),
      payload: JSON.stringify({
        actor: { id: "42", objectType: "person" },
        verb: "update",
        object: { objectType: "user", password: "x" },
        source: { id: "pc", objectType: "device" },
      }),
    });
    expect(stepUp.statusCode).toBe(428);
    expect(stepUp.json().content).toEqual({ mfa: { methods: ["totp"] } });
    expect(stepUp.json().errors.items).toEqual([
      expect.objectContaining({ field: "object.mfaCode", code: "required" }),
    ]);
  });
});
