import type { FastifyReply } from "fastify";
import type { JsonObject } from "@bufbuild/protobuf";
import { errorFacts } from "@gatehouse/errors";
import type { ConfirmationRequired, LoginOutcome, ProfileRequired, TermsRequired } from "@gatehouse/proto";
import { localized } from "../../http/terms.ts";
import { showLoginOutcome } from "../authorize/outcomes.ts";
import { showLoginError } from "../authorize/error-pages.ts";
import type { HostedView } from "../authorize/view.ts";
import { sendPage } from "../kit/send.ts";
import { appNameOf, authorizationOf, callerOf, formTokenOf, pageContext } from "../authorize/context.ts";
import { assertionField, codeField, fieldsFor, secondStepForm, withErrors, type FormField } from "../kit/form-model.ts";
import { problemAlert, showSecondStep } from "../registration/pages.ts";
import { renderForm } from "../kit/render.ts";
import { HOSTED_TEXTS } from "../kit/texts.ts";
import { blanks, dataOf, expired, valuesOf } from "../authorize/values.ts";

// The pages of a hosted flow after its first form (contract section 8): the
// confirmation code (412, and a registration's), the legal assertions to
// accept (451), the missing mandatory data (206 with fca), a two-step
// registration's second page. Each carries the flow token the users service
// sealed and continues the login with UsersService.ContinueLogin.

const hiddenOf = (v: HostedView, page: string, flowToken: string, extra: { name: string; value: string }[] = []) => [
  { name: "form_token", value: formTokenOf(v) },
  { name: "intent", value: "flow" },
  { name: "page", value: page },
  { name: "flow_token", value: flowToken },
  ...extra,
];

/** The login continued by its flow token with what a page sent; the outcome's page, or the flow's end. */
export async function continueFlow(
  v: HostedView,
  req: {
    flowToken: string;
    confirmationCode?: string;
    resendCode?: boolean;
    datas?: JsonObject;
    assertions?: JsonObject;
  },
): Promise<LoginOutcome> {
  const res = await v.h.deps.users!.continueLogin({
    caller: callerOf(v),
    authorizationRequest: authorizationOf(v.pending),
    ...req,
  });
  return res.outcome!;
}

/** The confirmation code page (412, a registration's main id): the code sent, continuing the flow once right. */
export async function showConfirmPage(
  v: HostedView,
  c: Pick<ConfirmationRequired, "flowToken" | "key" | "resendLimited">,
  opts: { status?: number; notice?: string; codeError?: string; to?: string } = {},
): Promise<FastifyReply> {
  const t = HOSTED_TEXTS[v.lang];
  const phone = c.key === "phone_number";
  // Where the code went, when the user typed it on this flow's form.
  const to = opts.to ?? (v.typed?.key === c.key ? v.typed.value : "");
  const code: FormField = { ...codeField(v.lang), ...(opts.codeError ? { error: opts.codeError } : {}) };
  const html = renderForm({
    lang: v.lang,
    appName: appNameOf(v),
    title: phone ? t.confirmTitlePhone : t.confirmTitleEmail,
    lead: to ? t.confirmLeadTo : phone ? t.confirmLeadPhone : t.confirmLeadEmail,
    ...(to ? { leadTo: to } : {}),
    ...(opts.codeError ? { alert: { text: t.problemTitle, items: [{ id: code.id, text: opts.codeError }] } } : {}),
    ...(c.resendLimited ? { alert: { text: t.tooManyCodes } } : opts.notice ? { notice: opts.notice } : {}),
    action: "authorize",
    hidden: hiddenOf(v, "confirm", c.flowToken, [
      { name: "key", value: c.key },
      { name: "to", value: to },
    ]),
    fields: [code],
    primary: { label: t.continueButton },
    secondary: { label: t.sendNewCode, name: "resend" },
  });
  return sendPage(v.reply, opts.status ?? 200, html);
}

export async function showTermsPage(
  v: HostedView,
  terms: TermsRequired,
  opts: { status?: number; checked?: ReadonlySet<string> } = {},
): Promise<FastifyReply> {
  const t = HOSTED_TEXTS[v.lang];
  const fields = terms.assertions.map((a) => {
    const f = assertionField(a.key, localized(a.displayName, v.lang), a.mandatory, opts.checked?.has(a.key) ?? false);
    return opts.status && a.mandatory && !opts.checked?.has(a.key) ? { ...f, error: t.errors.requiredCheck } : f;
  });
  const alert = problemAlert(v, fields);
  const html = renderForm({
    lang: v.lang,
    appName: appNameOf(v),
    title: t.termsTitle,
    lead: t.termsLead(appNameOf(v)),
    ...(alert ? { alert } : {}),
    action: "authorize",
    hidden: hiddenOf(v, "terms", terms.flowToken, [
      { name: "shown", value: terms.assertions.map((a) => a.key).join(" ") },
    ]),
    fields,
    primary: { label: t.acceptButton },
  });
  return sendPage(v.reply, opts.status ?? 200, html);
}

export async function showProfilePage(
  v: HostedView,
  p: Pick<ProfileRequired, "flowToken" | "missingFields">,
  opts: { status?: number; values?: Record<string, string>; violations?: { field: string; code: string }[] } = {},
): Promise<FastifyReply> {
  const ctx = await pageContext(v);
  if (!ctx) return expired(v);
  const t = HOSTED_TEXTS[v.lang];
  const { fields, unplaced } = withErrors(
    fieldsFor(ctx.ep, p.missingFields, { lang: v.lang, formats: ctx.formats, values: opts.values }),
    opts.violations ?? [],
    v.lang,
  );
  const alert = problemAlert(v, fields, unplaced);
  const html = renderForm({
    lang: v.lang,
    appName: appNameOf(v),
    title: t.profileTitle,
    lead: t.profileLead(appNameOf(v)),
    ...(alert ? { alert } : {}),
    action: "authorize",
    hidden: hiddenOf(v, "profile", p.flowToken, [{ name: "missing", value: p.missingFields.join(" ") }]),
    fields,
    primary: { label: t.continueButton },
  });
  return sendPage(v.reply, opts.status ?? 200, html);
}

/** A rejection of the data sent on a page: the page again with each error next to its input; else undefined. */
function rejected(err: unknown) {
  const f = errorFacts(err);
  return f.reason === "VALIDATION_FAILED" || f.reason === "CONSTRAINT_VIOLATION" ? f.violations : undefined;
}

/** A page of a flow posted: apply what it sent through ContinueLogin and show what comes next. */
export async function submitFlowForm(v: HostedView, form: Record<string, string>): Promise<FastifyReply> {
  const t = HOSTED_TEXTS[v.lang];
  const flowToken = form.flow_token ?? "";
  const ctx = await pageContext(v);
  if (!ctx || !flowToken) return expired(v);
  try {
    switch (form.page) {
      case "confirm": {
        const key = form.key === "phone_number" ? "phone_number" : "email";
        if (form.resend !== undefined) {
          const next = await continueFlow(v, { flowToken, resendCode: true });
          if (next.outcome.case === "confirmationRequired" && next.outcome.value.flowToken)
            return showConfirmPage(v, next.outcome.value, { notice: t.newCodeSent, to: form.to ?? "" });
          return showLoginOutcome(v, next);
        }
        const code = (form.code ?? "").replace(/\s+/g, "");
        const to = form.to ?? "";
        if (!code)
          return showConfirmPage(
            v,
            { flowToken, key, resendLimited: false },
            { status: 400, codeError: t.errors.enterCode, to },
          );
        try {
          return await showLoginOutcome(v, await continueFlow(v, { flowToken, confirmationCode: code }));
        } catch (err) {
          if (errorFacts(err).reason !== "INVALID_CODE") throw err;
          return showConfirmPage(
            v,
            { flowToken, key, resendLimited: false },
            { status: 400, codeError: t.errors.wrongCode, to },
          );
        }
      }
      case "terms": {
        const shown = (form.shown ?? "").split(" ").filter(Boolean).slice(0, 100);
        const checked = new Set(shown.filter((k) => form[`assertion.${k}`] !== undefined));
        const assertions = Object.fromEntries(
          shown.map((k) => [k, { objectType: "assertion", value: checked.has(k) }]),
        );
        const next = await continueFlow(v, { flowToken, assertions });
        // A mandatory one still unaccepted: the same question, with the errors.
        if (next.outcome.case === "termsRequired")
          return showTermsPage(v, next.outcome.value, { status: 400, checked });
        return showLoginOutcome(v, next);
      }
      case "profile":
      case "step2": {
        const missing = (form.missing ?? "").split(" ").filter(Boolean);
        const fields =
          form.page === "step2"
            ? secondStepForm(ctx.ep, { lang: v.lang, formats: ctx.formats })
            : fieldsFor(ctx.ep, missing, { lang: v.lang, formats: ctx.formats });
        const values = valuesOf(fields, form);
        const again = (violations: { field: string; code: string }[]) =>
          form.page === "step2"
            ? showSecondStep(ctx, flowToken, { status: 400, values, violations })
            : showProfilePage(v, { flowToken, missingFields: missing }, { status: 400, values, violations });
        const empty = blanks(fields, values);
        if (empty.length) return again(empty);
        try {
          return await showLoginOutcome(v, await continueFlow(v, { flowToken, datas: dataOf(values) as JsonObject }));
        } catch (err) {
          const violations = rejected(err);
          if (violations) return again(violations);
          throw err;
        }
      }
      default:
        return expired(v);
    }
  } catch (err) {
    if (errorFacts(err).reason === "LOGIN_FLOW_INVALID") return expired(v);
    return showLoginError(v, { email: "" }, err);
  }
}
