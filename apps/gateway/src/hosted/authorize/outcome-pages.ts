import type { LoginOutcome } from "@gatehouse/proto";
import { notAsked, renderOutcome, type OutcomeTable } from "../../http/login-outcome.ts";
import { redirectToClient } from "../../oauth/redirect-uri.ts";
import { showConfirmPage, showProfilePage, showTermsPage } from "../interruptions/pages.ts";
import { renderMessage } from "../kit/render.ts";
import { sendPage } from "../kit/send.ts";
import { showMfaPage } from "../mfa/code-page.ts";
import { showEnrolPage } from "../mfa/enrol.ts";
import { MFA_TEXTS } from "../mfa/texts.ts";
import { showPasskeyOffer } from "../passkeys/offer-page.ts";
import { linkWithToken, RESEND_PATH, TERMS_PATH } from "../paths.ts";
import { backToSignIn } from "../journey/messages.ts";
import { JOURNEY_TEXTS } from "../journey/texts.ts";
import type { HostedView, PageAnswer } from "../journey/view.ts";

// The hosted login's page (or redirect) for every end of a login; the JSON
// answers are the other table (routes/activityid/login-outcomes.ts).

/** An interruption told on a message page, with the application's name. */
const messagePage = (
  v: HostedView,
  status: number,
  title: string,
  text: string,
  links: { href: string; label: string }[],
) => sendPage(v.reply, status, renderMessage({ lang: v.lang, title, text, links, appName: v.app.displayName }));

const PAGE_OUTCOMES: OutcomeTable<HostedView, PageAnswer> = {
  session: notAsked("a session"),

  // RFC 6749 section 4.1.2: the code (and state) at the exact redirect URI, 303 after the form.
  authorizationCode: (v, c) =>
    redirectToClient(
      v.reply,
      303,
      v.pending.redirectUri,
      { code: c.code, state: v.pending.state },
      v.h.deps.config.publicAuthUrl,
    ),

  // The page asks for the code that was sent and continues the login (the flow token); an account
  // awaiting activation (assisted registration) is told to use its activation link.
  confirmationRequired: (v, c) => {
    if (c.flowToken && !c.activationRequired) return showConfirmPage(v, c);
    const t = JOURNEY_TEXTS[v.lang];
    const links = [backToSignIn(v)];
    const resendLabel = c.activationRequired ? t.resendActivation : t.resendLink;
    if (!c.resendLimited)
      links.unshift({
        href: linkWithToken(v.h.deps.config.publicBaseUrl, RESEND_PATH, c.resendToken),
        label: resendLabel,
      });
    const [title, text] = c.activationRequired
      ? [t.activationTitle, t.activationText]
      : [t.unconfirmedTitle, t.unconfirmedText];
    return messagePage(v, 403, title, c.resendLimited ? `${text} ${t.resendLimited}` : text, links);
  },

  // 428: the code page; a user without a factor enrols on the hosted page.
  mfaRequired: (v, m) => {
    if (!m.enroll && m.mfaToken) return showMfaPage(v, m.mfaToken);
    if (m.enroll && m.mfaToken) return showEnrolPage(v, m.mfaToken);
    const t = MFA_TEXTS[v.lang];
    return messagePage(v, 428, t.mfaTitle, t.mfaEnrollText, [backToSignIn(v)]);
  },

  // 451: the assertions to accept, as checkboxes on the page (the flow token continues the login).
  termsRequired: (v, terms) => {
    if (terms.flowToken) return showTermsPage(v, terms);
    const t = JOURNEY_TEXTS[v.lang];
    const links = [
      { href: linkWithToken(v.h.deps.config.publicBaseUrl, TERMS_PATH, terms.termsToken), label: t.termsLink },
      backToSignIn(v),
    ];
    return messagePage(v, 451, t.termsTitle, t.termsText, links);
  },

  // A hosted login asks for the data before its code (profileRequired); a code issued anyway goes to the client.
  profileIncomplete: (v, p) =>
    p.grant.case === "authorizationCode" ? PAGE_OUTCOMES.authorizationCode(v, p.grant.value) : notAsked("a session")(),

  // 206 of a page: the hosted login's user lacks mandatory data; the page asks for it, then the code.
  profileRequired: (v, p) => showProfilePage(v, p),

  // A hosted login's last page, for a browser that can make a passkey and a user without one: the offer.
  passkeyOffer: (v, offer) => showPasskeyOffer(v, offer),
};

/** The hosted login's page (or redirect) for a login's outcome. */
export const outcomePage = (v: HostedView, outcome: LoginOutcome | undefined): PageAnswer =>
  renderOutcome(PAGE_OUTCOMES, v, outcome);
