import { randomBytes } from "node:crypto";
import type { Client } from "@connectrpc/connect";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "@gatehouse/config";
import { errorFacts, isTransient, type Locale } from "@gatehouse/errors";
import type { DeviceAuthorizationService } from "@gatehouse/proto";
import { sha256Base64url } from "@gatehouse/secrets";
import type { OAuthClients } from "../../oauth/applications.ts";
import { sendErrorPage } from "../journey/messages.ts";
import { JOURNEY_TEXTS } from "../journey/texts.ts";
import { AUTHORIZE_PATH, DEVICE_CALLBACK_PATH } from "../paths.ts";
import { sendDecisionPage, sendDeviceProblem, sendDonePage, sendEnterPage } from "./pages.ts";
import { DEVICE_TEXTS, deviceKindOf } from "./texts.ts";
import { deviceTokens, type DeviceStep } from "./tokens.ts";

export interface DevicePagesDeps {
  devices: Client<typeof DeviceAuthorizationService>;
  clients: OAuthClients;
  hostedLoginKey: (data: string) => string;
  config: Pick<Config, "publicAuthUrl">;
}

type Params = Record<string, string | undefined>;
type Decide = Extract<DeviceStep, { step: "decide" }>;

const localeOf = (req: FastifyRequest, asked?: string): Locale => {
  const l = asked
    ?.split(" ")
    .map((x) => x.split("-")[0]!.toLowerCase())
    .find((x) => x === "en" || x === "es");
  return l === "en" || l === "es" ? l : req.locale;
};

/**
 * The person's side of the device grant (RFC 8628 section 3.3, contract
 * section 13): /device asks for the user code; a right one starts the
 * entry point's own hosted login (an authorization request whose redirect
 * URI is DEVICE_CALLBACK_PATH, with PKCE); the callback records who signed
 * in and asks to approve or deny; the answer ends on a done page.
 */
export function devicePages(deps: DevicePagesDeps) {
  const tokens = deviceTokens(deps.hostedLoginKey, { secureCookie: deps.config.publicAuthUrl.startsWith("https:") });
  const callbackUri = `${deps.config.publicAuthUrl}${DEVICE_CALLBACK_PATH}`;
  const appName = async (clientId: string) => {
    const app = (await deps.clients.client(clientId))?.app;
    return app ? app.displayName || app.clientId : clientId;
  };
  const expired = (reply: FastifyReply, lang: Locale) =>
    sendDeviceProblem(reply, 400, lang, DEVICE_TEXTS[lang].notFinishedTitle, DEVICE_TEXTS[lang].expired);

  /** The services failed: 503 (transient) or 500, never a stack. */
  function unavailable(req: FastifyRequest, reply: FastifyReply, lang: Locale, err: unknown) {
    const transient = isTransient(errorFacts(err).reason);
    if (!transient) req.log.error({ err }, "device page failure");
    return sendErrorPage(reply, transient ? 503 : 500, lang, JOURNEY_TEXTS[lang].unavailable);
  }

  /** A right code starts the hosted login; a wrong one (counted per address) shows the form again. */
  async function enterCode(req: FastifyRequest, reply: FastifyReply, lang: Locale, typed: string) {
    const t = DEVICE_TEXTS[lang];
    const again = (status: number, error: string) =>
      sendEnterPage(reply, status, {
        lang,
        formToken: tokens.issue(req, reply, { step: "enter", lang }),
        value: typed.slice(0, 32),
        error,
      });
    let found;
    try {
      found = await deps.devices.lookUpUserCode({ userCode: typed.slice(0, 64), clientAddress: req.ip });
    } catch (err) {
      if (errorFacts(err).reason === "RATE_LIMITED") return again(429, t.tooMany);
      throw err;
    }
    const client = found.found ? await deps.clients.client(found.clientId) : undefined;
    if (!client) return again(400, t.wrongCode);
    const n = randomBytes(16).toString("base64url");
    const state = tokens.issue(req, reply, {
      step: "sign-in",
      lang,
      userCode: found.userCode,
      clientId: found.clientId,
      sourceId: found.sourceId,
      n,
    });
    // The entry point's own hosted login: every sign-in method it offers, registration included.
    const entrypoint = found.entrypointId || client.entrypointId || client.app.entrypoints[0]?.id || "";
    const q = new URLSearchParams({
      response_type: "code",
      client_id: found.clientId,
      redirect_uri: callbackUri,
      scope: found.scope,
      state,
      code_challenge: sha256Base64url(tokens.verifierOf(n)),
      code_challenge_method: "S256",
      ui_locales: lang,
      ...(entrypoint ? { entrypoint } : {}),
    });
    return reply.header("cache-control", "no-store").redirect(`${AUTHORIZE_PATH}?${q.toString()}`, 303);
  }

  async function decide(reply: FastifyReply, step: Decide, approve: boolean) {
    try {
      await deps.devices.decideDevice({ userCode: step.userCode, userId: step.userId, approve });
    } catch (err) {
      if (errorFacts(err).reason === "DEVICE_CODE_INVALID") return expired(reply, step.lang);
      throw err;
    }
    return sendDonePage(reply, {
      lang: step.lang,
      approved: approve,
      appName: await appName(step.clientId),
      kind: deviceKindOf(step.sourceId),
    });
  }

  return {
    /** GET /device[?user_code=]: the code form, prefilled from verification_uri_complete (the person still confirms). */
    show(req: FastifyRequest, reply: FastifyReply) {
      const q = (req.query ?? {}) as Params;
      const lang = localeOf(req, typeof q.ui_locales === "string" ? q.ui_locales : undefined);
      const value = typeof q.user_code === "string" ? q.user_code.slice(0, 32) : "";
      return sendEnterPage(reply, 200, { lang, formToken: tokens.issue(req, reply, { step: "enter", lang }), value });
    },

    /** POST /device: the code entered, or the decision (Approve, or the Deny button). */
    async submit(req: FastifyRequest, reply: FastifyReply, form: Params) {
      const step = tokens.verify(req, form.form_token ?? "");
      const lang = step?.lang ?? req.locale;
      try {
        if (step?.step === "enter") return await enterCode(req, reply, lang, form.user_code ?? "");
        if (step?.step === "decide")
          return await decide(reply, step, form.deny === undefined && form.decision === "approve");
        return expired(reply, lang);
      } catch (err) {
        return unavailable(req, reply, lang, err);
      }
    },

    /** GET /device/callback: the hosted login came back; record who signed in, then ask. */
    async callback(req: FastifyRequest, reply: FastifyReply) {
      const q = (req.query ?? {}) as Params;
      const step = tokens.verify(req, typeof q.state === "string" ? q.state : "");
      if (step?.step !== "sign-in") return expired(reply, req.locale);
      const t = DEVICE_TEXTS[step.lang];
      // The hosted login answered an error (RFC 6749 section 4.1.2.1) instead of a code.
      if (typeof q.code !== "string" || !q.code)
        return sendDeviceProblem(reply, 400, step.lang, t.notFinishedTitle, t.notFinishedText);
      try {
        const { userId } = await deps.devices.signInDevice({
          userCode: step.userCode,
          code: q.code,
          codeVerifier: tokens.verifierOf(step.n),
          redirectUri: callbackUri,
        });
        const { n: _n, ...rest } = step;
        const formToken = tokens.issue(req, reply, { ...rest, step: "decide", userId });
        return sendDecisionPage(reply, {
          lang: step.lang,
          formToken,
          appName: await appName(step.clientId),
          kind: deviceKindOf(step.sourceId),
          userCode: step.userCode,
        });
      } catch (err) {
        const reason = errorFacts(err).reason;
        if (reason === "DEVICE_CODE_INVALID" || reason === "INVALID_GRANT") return expired(reply, step.lang);
        return unavailable(req, reply, step.lang, err);
      }
    },
  };
}

export type DevicePages = ReturnType<typeof devicePages>;
