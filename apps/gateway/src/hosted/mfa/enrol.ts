import type { FastifyReply } from "fastify";
import { errorFacts } from "@gatehouse/errors";
import { appNameOf, callerOf, formTokenOf, FORM_ACTION } from "../journey/context.ts";
import { backToSignIn, sendErrorPage } from "../journey/messages.ts";
import { JOURNEY_TEXTS } from "../journey/texts.ts";
import { showLoginError, type HostedView } from "../journey/view.ts";
import { codeField, type FormField } from "../kit/form-model.ts";
import { renderPage } from "../kit/render.ts";
import { sendPage } from "../kit/send.ts";
import { MFA_TEXTS } from "./texts.ts";

// The hosted TOTP enrolment (a login whose user must have a second factor and
// has none: operators at their first sign-in, applications with MFA
// `required`): the secret as a QR code drawn on the server (inline SVG, no
// script, nothing loaded) and as text, a code input; then the recovery
// codes, shown once; then the login goes on with the same MFA token.

// A base32 TOTP secret (RFC 4648), as the users service makes them (160 bits).
const SECRET = /^[A-Z2-7]{16,64}$/;

/** The secret in groups of four, as authenticator apps' manual entry shows it. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, "$1 ");

/**
 * otpauth://totp/ URI of a secret for this page's label (the users service sets the label to the email on enrolment).
 * qrcode (and pngjs under it, ~60 modules) loads on the first enrolment page, not in every idle gateway.
 */
async function qrSvgOf(otpauthUrl: string): Promise<string> {
  const { default: QRCode } = await import("qrcode");
  return QRCode.toString(otpauthUrl, {
    type: "svg",
    errorCorrectionLevel: "M",
    margin: 1,
    color: { dark: "#101828", light: "#ffffff" },
  });
}

interface EnrolSecret {
  secret: string;
  otpauthUrl: string;
}

function renderEnrol(
  v: HostedView,
  mfaToken: string,
  enrolment: EnrolSecret,
  qrSvg: string,
  error?: string,
): FastifyReply {
  const e = MFA_TEXTS[v.lang];
  // A wrong code: the alert says it once, the input is marked and described by it.
  const field: FormField = {
    ...codeField(v.lang, e.codeHint),
    label: e.codeLabel,
    autofocus: true,
    ...(error ? { alerted: true } : {}),
  };
  const html = renderPage("enrol", {
    lang: v.lang,
    appName: appNameOf(v),
    title: e.title,
    e,
    alert: error,
    qrSvg,
    secretGroups: grouped(enrolment.secret),
    action: FORM_ACTION,
    hidden: [
      { name: "form_token", value: formTokenOf(v) },
      { name: "intent", value: "enrol" },
      { name: "enrol_token", value: mfaToken },
      // Shown again after a wrong code (never trusted: the users service holds the sealed secret it checks).
      { name: "totp_secret", value: enrolment.secret },
      { name: "otpauth_url", value: enrolment.otpauthUrl },
    ],
    field,
    back: backToSignIn(v),
  });
  return sendPage(v.reply, error ? 400 : 200, html);
}

/** The 428 of a user who must enrol: a new secret for the login's MFA token, then its page. */
export async function showEnrolPage(v: HostedView, mfaToken: string): Promise<FastifyReply> {
  if (!v.h.deps.mfa) return sendErrorPage(v.reply, 500, v.lang, JOURNEY_TEXTS[v.lang].unexpected);
  try {
    const enrolment = await v.h.deps.mfa.enrollTotp({ mfaToken, caller: callerOf(v) });
    return renderEnrol(v, mfaToken, enrolment, await qrSvgOf(enrolment.otpauthUrl));
  } catch (err) {
    return showLoginError(v, { email: "" }, err);
  }
}

/** The enrolment's code posted back: TOTP on and its recovery codes, or the same secret again with the error. */
export async function submitEnrolForm(v: HostedView, form: Record<string, string>): Promise<FastifyReply> {
  const mfaToken = form.enrol_token ?? "";
  if (!v.h.deps.mfa || !mfaToken)
    return showLoginError(v, { email: "" }, new Error("enrolment form without its token"));
  try {
    const done = await v.h.deps.mfa.confirmTotp({
      mfaToken,
      caller: callerOf(v),
      code: (form.code ?? "").replace(/\s/g, ""),
    });
    return showRecoveryPage(v, mfaToken, done.recoveryCodes);
  } catch (err) {
    const reason = errorFacts(err).reason;
    const secret = form.totp_secret ?? "";
    const url = form.otpauth_url ?? "";
    const shownAgain =
      SECRET.test(secret) && url.startsWith("otpauth://totp/") && url.includes(`secret=${secret}`) && url.length <= 512;
    if ((reason === "MFA_CODE_INVALID" || reason === "VALIDATION_FAILED") && shownAgain) {
      return renderEnrol(v, mfaToken, { secret, otpauthUrl: url }, await qrSvgOf(url), MFA_TEXTS[v.lang].wrong);
    }
    return showLoginError(v, { email: "" }, err);
  }
}

/** The recovery codes, once; continuing finishes the login with the MFA token the enrolment proved. */
function showRecoveryPage(v: HostedView, mfaToken: string, codes: string[]): FastifyReply {
  const e = MFA_TEXTS[v.lang];
  const html = renderPage("recovery", {
    lang: v.lang,
    appName: appNameOf(v),
    title: e.recoveryTitle,
    e,
    codes,
    action: FORM_ACTION,
    hidden: [
      { name: "form_token", value: formTokenOf(v) },
      { name: "mfa_token", value: mfaToken },
      { name: "code", value: "" },
    ],
  });
  return sendPage(v.reply, 200, html);
}
