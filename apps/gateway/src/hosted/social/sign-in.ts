import type { FastifyReply } from "fastify";
import { errorFacts } from "@gatehouse/errors";
import { authorizationOf, callerOf, pageContext } from "../journey/context.ts";
import { expired } from "../journey/messages.ts";
import { showLoginError, showLoginOutcome, type HostedView } from "../journey/view.ts";
import { IDP_CALLBACK_PATH } from "../paths.ts";
import { showRegistrationPage } from "../registration/pages.ts";
import { showLoginPage } from "../sign-in/login-page.ts";
import { SOCIAL_TEXTS } from "./texts.ts";

// Social sign-in on the hosted pages (contract section 11): a provider's
// button posts the page's form with `idp`; the browser goes to the provider
// with the transaction in a cookie; the provider's redirect to the callback
// is LoginUser with the `upstream` credential, whose outcome is any login's.

const MAX_TOKEN = 8192;

/** Why the sign-in failed, said on the login page; nothing was created or linked. */
function failurePage(v: HostedView, err: unknown): Promise<FastifyReply> | FastifyReply {
  const t = SOCIAL_TEXTS[v.lang];
  const f = errorFacts(err);
  const reason = f.metadata.reason ?? "";
  v.req.log.warn({ reason: f.reason, detail: reason, entrypointId: v.pending.entrypointId }, "social sign-in failed");
  if (f.reason === "UPSTREAM_UNAVAILABLE") return showLoginPage(v, { status: 503, error: t.unavailable });
  if (f.reason !== "UPSTREAM_LOGIN_FAILED" && f.reason !== "IDENTITY_PROVIDER_NOT_FOUND")
    return showLoginError(v, { email: "" }, err);
  const text =
    reason === "provider_error"
      ? t.denied
      : reason === "invalid_state" || reason === "expired"
        ? t.expired
        : reason === "already_linked"
          ? t.alreadyLinked
          : t.failed;
  return showLoginPage(v, { status: 400, error: text });
}

/** A provider's button: the users service's authorization URL, the transaction in the browser's cookie, 303 there. */
export async function startUpstreamSignIn(v: HostedView, form: Record<string, string>): Promise<FastifyReply> {
  const ctx = await pageContext(v);
  if (!ctx) return expired(v);
  const provider = form.idp ?? "";
  if (!ctx.ep.identityProviders.includes(provider))
    return showLoginPage(v, { status: 400, error: SOCIAL_TEXTS[v.lang].failed });
  try {
    const res = await v.h.deps.users.startUpstreamLogin({
      caller: callerOf(v),
      provider,
      authorizationRequest: authorizationOf(v.pending),
      redirectUri: `${v.h.deps.config.publicAuthUrl}${IDP_CALLBACK_PATH}`,
    });
    v.h.idp.set(v.reply, { pending: v.pending, transaction: res.transaction });
    return v.reply.code(303).header("location", res.authorizationUrl).send();
  } catch (err) {
    return failurePage(v, err);
  }
}

/**
 * The provider's redirect back: the code (or error) with the transaction of
 * this browser's cookie; the login's outcome, or the page that links the
 * account after its proof, or the registration page that asks what is missing.
 */
export async function finishUpstreamSignIn(v: HostedView, transaction: string): Promise<FastifyReply> {
  const query = v.req.url.includes("?") ? v.req.url.slice(v.req.url.indexOf("?")) : "";
  const callbackUrl = `${v.h.deps.config.publicAuthUrl}${IDP_CALLBACK_PATH}${query}`;
  try {
    const res = await v.h.deps.users.loginUser({
      caller: callerOf(v),
      upstream: { transaction, callbackUrl },
      fca: true,
      authorizationRequest: authorizationOf(v.pending),
    });
    return await showLoginOutcome(v, res.outcome);
  } catch (err) {
    const f = errorFacts(err);
    const t = SOCIAL_TEXTS[v.lang];
    if (f.reason === "UPSTREAM_LINK_REQUIRED" && (f.metadata.link_token ?? "").length < MAX_TOKEN) {
      v.linkToken = f.metadata.link_token;
      const email = f.metadata.email ?? "";
      const name = (await providerName(v, f.metadata.provider ?? "")) || (f.metadata.provider ?? "");
      return showLoginPage(v, { value: email, notice: t.linkNotice(name, email) });
    }
    if (f.reason === "UPSTREAM_SIGNUP_REQUIRED" && (f.metadata.signup_token ?? "").length < MAX_TOKEN) {
      const upstream = { token: f.metadata.signup_token!, email: f.metadata.email ?? "" };
      return showRegistrationPage(v, { upstream, values: profileValues(f.metadata.profile) });
    }
    return failurePage(v, err);
  }
}

/** The provider's standard claims by data-field key (name, surname, birthday, locale), for the inputs. */
function profileValues(raw: string | undefined): Record<string, string> {
  try {
    const parsed = JSON.parse(raw ?? "{}") as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch {
    return {};
  }
}

async function providerName(v: HostedView, key: string): Promise<string> {
  try {
    const { providers } = (await v.h.deps.identityProviders?.listIdentityProviders({})) ?? { providers: [] };
    return providers.find((p) => p.key === key)?.displayName ?? "";
  } catch {
    return "";
  }
}
