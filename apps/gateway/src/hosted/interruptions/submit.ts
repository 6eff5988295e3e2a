import type { FastifyReply } from "fastify";
import type { JsonObject } from "@bufbuild/protobuf";
import { errorFacts } from "@gatehouse/errors";
import { pageContext } from "../journey/context.ts";
import { expired } from "../journey/messages.ts";
import { showLoginError, showLoginOutcome, type HostedView } from "../journey/view.ts";
import { fieldsFor, secondStepForm } from "../kit/form-model.ts";
import { blanks, dataOf, valuesOf } from "../kit/form-values.ts";
import { KIT_TEXTS } from "../kit/texts.ts";
import { showSecondStep } from "../registration/pages.ts";
import { continueFlow } from "../journey/continue.ts";
import { captchaPassed } from "../journey/captcha.ts";
import { showConfirmPage, showProfilePage, showTermsPage } from "./pages.ts";

/** A rejection of the data sent on a page: the page again with each error next to its input; else undefined. */
function rejected(err: unknown) {
  const f = errorFacts(err);
  return f.reason === "VALIDATION_FAILED" || f.reason === "CONSTRAINT_VIOLATION" ? f.violations : undefined;
}

/** A page of a flow posted (intent `flow`): apply what it sent through ContinueLogin and show what comes next. */
export async function submitInterruption(v: HostedView, form: Record<string, string>): Promise<FastifyReply> {
  const t = KIT_TEXTS[v.lang];
  const flowToken = form.flow_token ?? "";
  const ctx = await pageContext(v);
  if (!ctx || !flowToken) return expired(v);
  try {
    switch (form.page) {
      case "confirm": {
        const key = form.key === "phone_number" ? "phone_number" : "email";
        if (form.resend !== undefined) {
          // Section 17: nothing is sent without a right, unused ALTCHA solution (when the application asks for one).
          if (!(await captchaPassed(ctx, form)))
            return showConfirmPage(
              v,
              { flowToken, key, resendLimited: false },
              { status: 400, alert: t.captcha.failed, to: form.to ?? "" },
            );
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
