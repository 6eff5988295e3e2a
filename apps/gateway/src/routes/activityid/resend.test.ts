import { createClient, createRouterTransport, type ServiceImpl } from "@connectrpc/connect";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { domainError } from "@gatehouse/errors";
import { createLogger } from "@gatehouse/logging";
import { create } from "@bufbuild/protobuf";
import {
  AuthService,
  LoginOutcomeSchema,
  RegistryService,
  UsersService,
  type LoginOutcome,
  type ResendConfirmationRequest,
} from "@gatehouse/proto";
import { USERS_ACCESS_SCOPE, type Principal } from "@gatehouse/rpc";
import { createGateway } from "../../app.ts";

// The HTTP side of resending: the 412 login answer and the resend link's pages.
// The users service behind the gateway answers as the real one does for each case
// (its own tests cover the behaviour); here only the mapping to HTTP is checked.

const BASE = "https://id.example.com";
const TOKEN = "v1.aaaa.bbbb.cccccccccccccccccccccc";

/** What the fake users service answers for a login of `email` or a resend of `token`. */
const LOGINS: Record<string, LoginOutcome> = {
  "unconfirmed@example.com": create(LoginOutcomeSchema, {
    outcome: { case: "confirmationRequired", value: { keys: ["email"], key: "email", resendToken: TOKEN } },
  }),
  "limited@example.com": create(LoginOutcomeSchema, {
    outcome: {
      case: "confirmationRequired",
      value: { keys: ["email"], key: "email", resendToken: TOKEN, resendLimited: true, retryAfterSeconds: 1800n },
    },
  }),
};
const RESENDS: Record<string, Error | undefined> = {
  [TOKEN]: undefined,
  limited: domainError("RATE_LIMITED", undefined, { metadata: { retry_after: "1234" } }),
  invalid: domainError("INVALID_CODE"),
  queue: domainError("CONFIRMATION_NOT_QUEUED"),
};

describe("resend routes", () => {
  let app: FastifyInstance;
  const resends: ResendConfirmationRequest[] = [];
  beforeAll(async () => {
    const users: Partial<ServiceImpl<typeof UsersService>> = {
      async loginUser(req) {
        const outcome = LOGINS[req.email];
        if (!outcome) throw domainError("INVALID_CREDENTIALS");
        return { outcome };
      },
      async resendConfirmation(req) {
        if (!Object.hasOwn(RESENDS, req.resendToken)) throw domainError("INVALID_CODE");
        // The page asks first whether the token's application wants the ALTCHA check: these do not.
        if (req.peek) return { captcha: "off" };
        resends.push(req);
        const err = RESENDS[req.resendToken];
        if (err) throw err;
        return {};
      },
    };
    const appPrincipal: Principal = {
      subject: "100_shop",
      clientId: "100_shop",
      scopes: new Set([USERS_ACCESS_SCOPE]),
      internal: false,
      token: "app",
      claims: {},
    };
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
        verifyAccessToken: async (token) => (token === "app" ? appPrincipal : undefined),
        config: { publicBaseUrl: BASE, publicGraphUrl: BASE, publicAuthUrl: BASE, bodyLimitBytes: 65536 },
        ready: async () => true,
      },
      createLogger("gateway-test", "silent"),
    );
  });
  afterAll(() => app.close());

  const login = (email: string, lang = "en") =>
    app.inject({
      method: "POST",
      url: "/activityid/v1/user/access",
      headers: {
        authorization: "Bearer app",
        "content-type": "application/json",
        from: "100_shop_web",
        "accept-language": lang,
      },
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
  const resend = (token: string | undefined, lang = "en") =>
    app.inject({
      method: "GET",
      url: `/activityid/v1/user/confirm/resend${token === undefined ? "" : `?token=${encodeURIComponent(token)}`}`,
      headers: { "accept-language": lang },
    });

  it("412 carries content.url = the public resend link with the token, and no subcode while under the limit", async () => {
    const res = await login("unconfirmed@example.com");
    expect(res.statusCode).toBe(412);
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.json();
    expect(body.content.url).toBe(`${BASE}/activityid/v1/user/confirm/resend?token=${encodeURIComponent(TOKEN)}`);
    expect(body.result.status).toBe(412);
    expect(body.errors.code).toBe("user_unconfirmed");
    expect(body.errors).not.toHaveProperty("subcode");
    expect(res.headers["retry-after"]).toBeUndefined();
  });

  it("412 over the resend limit has errors.subcode 429, Retry-After and still the link", async () => {
    const res = await login("limited@example.com", "es");
    expect(res.statusCode).toBe(412);
    const body = res.json();
    expect(body.errors.subcode).toBe(429);
    expect(body.errors.message).toBe("El usuario no ha confirmado el correo.");
    expect(body.content.url).toContain("/activityid/v1/user/confirm/resend?token=");
    expect(res.headers["retry-after"]).toBe("1800");
  });

  it("GET of the link: 200 page in the Accept-Language locale, the token and locale passed on", async () => {
    for (const [lang, title] of [
      ["en", "Code sent"],
      ["es", "Código enviado"],
    ] as const) {
      const res = await resend(TOKEN, lang);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.body).toContain(`<html lang="${lang}">`);
      expect(res.body).toContain(title);
      expect(resends.at(-1)).toMatchObject({ resendToken: TOKEN, caller: { locale: lang } });
    }
  });

  it("GET of the link: 429 with Retry-After over the limit, 400 for an invalid or missing token, 502 when not queued", async () => {
    const limited = await resend("limited", "es");
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBe("1234");
    expect(limited.body).toContain("Demasiadas solicitudes");
    const invalid = await resend("invalid");
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain("Link not valid");
    const before = resends.length;
    expect((await resend(undefined)).statusCode).toBe(400);
    expect((await resend("")).statusCode).toBe(400);
    expect(resends.length).toBe(before);
    const failed = await resend("queue");
    expect(failed.statusCode).toBe(502);
    expect(failed.headers["content-type"]).toBe("text/html; charset=utf-8");
  });

  it("a HEAD of the link sends nothing", async () => {
    const before = resends.length;
    const res = await app.inject({
      method: "HEAD",
      url: `/activityid/v1/user/confirm/resend?token=${encodeURIComponent(TOKEN)}`,
    });
    expect(res.statusCode).not.toBe(200);
    expect(resends.length).toBe(before);
  });
});
