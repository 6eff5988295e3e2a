import type { FastifyReply } from "fastify";
import type { JsonObject } from "@bufbuild/protobuf";
import { errorFacts } from "@gatehouse/errors";
import { authorizationOf, authorizeUrl, callerOf, pageContext, type PageContext } from "../journey/context.ts";
import { expired, sendErrorPage } from "../journey/messages.ts";
import { JOURNEY_TEXTS } from "../journey/texts.ts";
import { showLoginError, showLoginOutcome, type HostedView } from "../journey/view.ts";
import { continueFlow } from "../journey/continue.ts";
import { isTwoStep, registrationForm, type FormField } from "../kit/form-model.ts";
import { dataOf, valuesOf } from "../kit/form-values.ts";
import { KIT_TEXTS } from "../kit/texts.ts";
import { captchaPassed } from "../journey/captcha.ts";
import { showRegistrationPage, showSecondStep } from "./pages.ts";
import { REGISTRATION_TEXTS } from "./texts.ts";

/** The registration object of the contract (`object`) from the page's inputs; blank inputs are not sent. */
function registrationObject(
  ctx: PageContext,
  fields: FormField[],
  values: Record<string, string>,
  password: string,
): JsonObject {
  const idKeys = new Set(ctx.ep.fields.filter((f) => f.type === "id").map((f) => f.key));
  const dataKeys = new Set(ctx.ep.fields.filter((f) => f.type === "field").map((f) => f.key));
  const ids: JsonObject = {};
  const assertions: JsonObject = {};
  for (const f of fields) {
    const value = values[f.name];
    if (!value) continue;
    if (idKeys.has(f.name)) ids[f.name] = { objectType: "user_id", value };
    else if (f.name.startsWith("assertion."))
      assertions[f.name.slice("assertion.".length)] = { objectType: "assertion", value: true };
  }
  const datas = dataOf(Object.fromEntries(Object.entries(values).filter(([k]) => dataKeys.has(k))));
  // A password posted to a passwordless entry point goes too: the users service refuses it (400), as the contract says.
  return { objectType: "user", ...(password ? { password } : {}), ids, datas, assertions };
}

/** The registration page posted: the user registered (step 1), then step 2, the code page, or the code for the client. */
export async function submitRegistration(v: HostedView, form: Record<string, string>): Promise<FastifyReply> {
  const ctx = await pageContext(v);
  if (!ctx) return expired(v);
  if (ctx.ep.assisted) return showRegistrationPage(v, { status: 403 });
  const assertions = await v.h.directory.mandatoryAssertions(ctx.ep, v.lang);
  // Social sign-in's registration page (UPSTREAM_SIGNUP_REQUIRED): no password; the provider's email rides in the token.
  const token = form.upstream_token;
  const upstream = token ? { token, email: form.email ?? "" } : undefined;
  const { fields } = registrationForm(ctx.ep, {
    lang: v.lang,
    formats: ctx.formats,
    assertions,
    ...(upstream ? { upstream: { email: upstream.email } } : {}),
  });
  const values = valuesOf(fields, form);
  // Section 17: nothing is created or sent without a right, unused ALTCHA solution (when the application asks for one).
  if (!(await captchaPassed(ctx, form)))
    return showRegistrationPage(v, {
      status: 400,
      values,
      alert: KIT_TEXTS[v.lang].captcha.failed,
      ...(upstream ? { upstream } : {}),
    });
  const main = ctx.ep.fields.find((f) => f.type === "id" && f.main)?.key ?? "email";
  if (values[main]) v.typed = { key: main, value: values[main] };
  let flowToken: string;
  try {
    const res = await v.h.deps.users.registerUser({
      caller: callerOf(v),
      object: registrationObject(ctx, fields, values, upstream ? "" : (form.password ?? "")),
      authorizationRequest: authorizationOf(v.pending),
      step: isTwoStep(ctx.ep) && !upstream ? 1 : 0,
      ...(upstream ? { upstreamToken: upstream.token } : {}),
    });
    flowToken = res.flowToken;
  } catch (err) {
    const f = errorFacts(err);
    if (f.reason === "VALIDATION_FAILED" || f.reason === "IDENTIFIER_TAKEN")
      return showRegistrationPage(v, {
        status: 400,
        values,
        violations: f.violations,
        ...(upstream ? { upstream } : {}),
      });
    if (f.reason === "SMS_LIMIT") {
      // When the hour's budget opens again, as the JSON answer says.
      if (f.metadata.retry_after) v.reply.header("retry-after", f.metadata.retry_after);
      return showRegistrationPage(v, {
        status: 429,
        values,
        alert: KIT_TEXTS[v.lang].smsLimit,
        ...(upstream ? { upstream } : {}),
      });
    }
    if (f.reason === "CONFIRMATION_NOT_QUEUED")
      return sendErrorPage(v.reply, 502, v.lang, JOURNEY_TEXTS[v.lang].unavailable, [
        { href: authorizeUrl(v.pending, { prompt: "create" }), label: REGISTRATION_TEXTS[v.lang].registerTitle },
      ]);
    return showLoginError(v, { email: values.email ?? "" }, err);
  }
  v.req.log.info({ entrypointId: ctx.ep.id }, "hosted registration");
  if (isTwoStep(ctx.ep) && !upstream) return showSecondStep(ctx, flowToken);
  try {
    return await showLoginOutcome(v, await continueFlow(ctx, { flowToken }));
  } catch (err) {
    return showLoginError(v, { email: values.email ?? "" }, err);
  }
}
