import type { FastifyReply } from "fastify";
import type { JsonObject } from "@bufbuild/protobuf";
import { errorFacts, type Violation } from "@gatehouse/errors";
import { showLoginOutcome } from "../authorize/outcomes.ts";
import { showLoginError } from "../authorize/error-pages.ts";
import { sendMessage, type HostedView } from "../authorize/view.ts";
import { sendPage } from "../kit/send.ts";
import { TEXTS } from "../authorize/texts.ts";
import {
  appNameOf,
  authorizationOf,
  authorizeUrl,
  callerOf,
  formTokenOf,
  languageLinks,
  pageContext,
  type PageContext,
} from "../authorize/context.ts";
import { directoryOf } from "../authorize/directory.ts";
import { isTwoStep, registrationForm, secondStepForm, withErrors, type FormField } from "../kit/form-model.ts";
import { continueFlow } from "../interruptions/pages.ts";
import { renderForm, renderMessage } from "../kit/render.ts";
import { HOSTED_TEXTS } from "../kit/texts.ts";
import { dataOf, expired, valuesOf } from "../authorize/values.ts";

/** The alert of a rejected form: "There is a problem", a link to each input in error, and what names no input (unlinked). */
export function problemAlert(v: HostedView, fields: FormField[], unplaced: readonly Violation[] = []) {
  const e = HOSTED_TEXTS[v.lang].errors;
  const items = fields.filter((f) => f.error).map((f) => ({ id: f.id, text: `${f.label}: ${f.error}` }));
  for (const u of unplaced)
    items.push({ id: "", text: u.field === "object.password" ? e.noPassword : `${u.field}: ${e.invalid}` });
  if (!items.length) return undefined;
  return { text: HOSTED_TEXTS[v.lang].problemTitle, items };
}

interface RegistrationPageOptions {
  status?: number;
  values?: Record<string, string>;
  violations?: readonly Violation[];
  languages?: boolean;
}

/**
 * The entry point's registration page (contract section 8, `prompt=create`):
 * its fields in order (step 1 of a two-step entry point), the password
 * unless passwordless, a checkbox per mandatory legal assertion. An assisted
 * entry point shows no form: its application registers the users.
 */
export async function showRegistrationPage(v: HostedView, opts: RegistrationPageOptions = {}): Promise<FastifyReply> {
  const ctx = await pageContext(v);
  if (!ctx) return expired(v);
  const t = HOSTED_TEXTS[v.lang];
  const app = appNameOf(v);
  if (ctx.ep.assisted) {
    const html = renderMessage({
      lang: v.lang,
      appName: app,
      title: t.assistedTitle(app),
      text: t.assistedText(app),
      links: [{ href: authorizeUrl(v.pending), label: t.signIn }],
    });
    return sendPage(v.reply, opts.status ?? 200, html);
  }
  const assertions = await directoryOf(v.h.deps).mandatoryAssertions(ctx.ep, v.lang);
  const form = registrationForm(ctx.ep, { lang: v.lang, formats: ctx.formats, assertions, values: opts.values });
  const { fields, unplaced } = withErrors(form.fields, opts.violations ?? [], v.lang);
  const alert = problemAlert(v, fields, unplaced);
  const html = renderForm({
    lang: v.lang,
    appName: app,
    ...(opts.languages ? { languages: languageLinks(v, "create") } : {}),
    ...(form.step ? { stepLabel: t.stepOf(1, 2) } : {}),
    title: t.registerTitle,
    lead: t.registerLead(app),
    ...(alert ? { alert } : {}),
    action: "authorize",
    hidden: [
      { name: "form_token", value: formTokenOf(v) },
      { name: "intent", value: "register" },
    ],
    fields,
    primary: { label: form.step ? t.continueButton : t.createButton },
    foot: [{ text: t.haveAccount, href: authorizeUrl(v.pending), label: t.signIn }],
  });
  return sendPage(v.reply, opts.status ?? 200, html);
}

/** The second page of a two-step entry point: its step 2 fields, saved like a patch through the flow. */
export function showSecondStep(
  ctx: PageContext,
  flowToken: string,
  opts: { status?: number; values?: Record<string, string>; violations?: readonly Violation[] } = {},
): FastifyReply {
  const t = HOSTED_TEXTS[ctx.lang];
  const { fields, unplaced } = withErrors(
    secondStepForm(ctx.ep, { lang: ctx.lang, formats: ctx.formats, values: opts.values }),
    opts.violations ?? [],
    ctx.lang,
  );
  const alert = problemAlert(ctx, fields, unplaced);
  const html = renderForm({
    lang: ctx.lang,
    appName: appNameOf(ctx),
    stepLabel: t.stepOf(2, 2),
    title: t.step2Title,
    lead: t.step2Lead(appNameOf(ctx)),
    ...(alert ? { alert } : {}),
    action: "authorize",
    hidden: [
      { name: "form_token", value: formTokenOf(ctx) },
      { name: "intent", value: "flow" },
      { name: "page", value: "step2" },
      { name: "flow_token", value: flowToken },
    ],
    fields,
    primary: { label: t.createButton },
  });
  return sendPage(ctx.reply, opts.status ?? 200, html);
}

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
  const assertions = await directoryOf(v.h.deps).mandatoryAssertions(ctx.ep, v.lang);
  const { fields } = registrationForm(ctx.ep, { lang: v.lang, formats: ctx.formats, assertions });
  const values = valuesOf(fields, form);
  const main = ctx.ep.fields.find((f) => f.type === "id" && f.main)?.key ?? "email";
  if (values[main]) v.typed = { key: main, value: values[main] };
  let flowToken: string;
  try {
    const res = await v.h.deps.users!.registerUser({
      caller: callerOf(v),
      object: registrationObject(ctx, fields, values, form.password ?? ""),
      authorizationRequest: authorizationOf(v.pending),
      step: isTwoStep(ctx.ep) ? 1 : 0,
    });
    flowToken = res.flowToken;
  } catch (err) {
    const f = errorFacts(err);
    if (f.reason === "VALIDATION_FAILED" || f.reason === "IDENTIFIER_TAKEN")
      return showRegistrationPage(v, { status: 400, values, violations: f.violations });
    if (f.reason === "CONFIRMATION_NOT_QUEUED")
      return sendMessage(v.reply, 502, v.lang, TEXTS[v.lang].unavailable, [
        { href: authorizeUrl(v.pending, { prompt: "create" }), label: HOSTED_TEXTS[v.lang].registerTitle },
      ]);
    return showLoginError(v, { email: values.email ?? "" }, err);
  }
  v.req.log.info({ entrypointId: ctx.ep.id }, "hosted registration");
  if (isTwoStep(ctx.ep)) return showSecondStep(ctx, flowToken);
  try {
    return await showLoginOutcome(v, await continueFlow(ctx, { flowToken }));
  } catch (err) {
    return showLoginError(v, { email: values.email ?? "" }, err);
  }
}
