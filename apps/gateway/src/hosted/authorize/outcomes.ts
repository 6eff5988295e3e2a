import type { ConnectError } from "@connectrpc/connect";
import type { FastifyReply } from "fastify";
import { MfaRequiredSchema, type LoginOutcome, type LoginSession, type MfaRequired } from "@gatehouse/proto";
import { sendContent, sendError } from "../../http/envelope.ts";
import { sendPartial } from "../../http/partial.ts";
import { assertionItem, TERMS_PATH } from "../../http/terms.ts";
import { sessionToJson, userToJson } from "../../http/user-json.ts";
import { showConfirmPage, showProfilePage, showTermsPage } from "../interruptions/pages.ts";
import { showEnrolPage } from "../mfa/enrol.ts";
import { HOSTED_TEXTS } from "../kit/texts.ts";
import { backToSignIn, redirectToClient, showMfa, type HostedView } from "./view.ts";
import { sendPage } from "../kit/send.ts";
import { messagePage } from "../kit/message-page.ts";
import { TEXTS } from "./texts.ts";
import { RESEND_PATH } from "../../routes/activityid/resend.ts";

// Every end of a login (UsersService.LoginUser, MfaService.CompleteMfaLogin)
// rendered from one table: the JSON answer of `/user/access` and
// `/user/access/mfa`, and the page (or redirect) of the hosted login. A new
// case of LoginOutcome does not typecheck until it has both renderings here.

/** Where a JSON route answers. */
export interface JsonView {
  reply: FastifyReply;
  publicBaseUrl: string;
}

type OutcomeCase = Exclude<LoginOutcome["outcome"], { case: undefined }>;
type OutcomeValues = { [C in OutcomeCase as C["case"]]: C["value"] };

interface Rendering<V> {
  json(view: JsonView, value: V): FastifyReply;
  page(view: HostedView, value: V): FastifyReply | Promise<FastifyReply>;
}

/** A case one side never asks for (JSON routes send no authorization request; the hosted login always does). */
const notAsked = (what: string) => () => {
  throw new Error(`the login answered ${what}, which this caller did not ask for`);
};

/** `content` of a finished `/user/access` login (contract section 5). */
const loginContent = (s: LoginSession) => ({
  user: userToJson(s.user!),
  session_info: sessionToJson(s.session!, s.user!.id),
});

/** `content.mfa` of a 428: the token of a login (none on a step-up), the methods, `enroll` when a factor must be set up first. */
const mfaContent = (m: MfaRequired) => ({
  ...(m.mfaToken ? { token: m.mfaToken } : {}),
  methods: m.methods,
  ...(m.enroll ? { enroll: true } : {}),
});

const resendUrl = (base: string, token: string) => `${base}${RESEND_PATH}?token=${encodeURIComponent(token)}`;
const termsUrl = (base: string, token: string) => `${base}${TERMS_PATH}?token=${encodeURIComponent(token)}`;

const OUTCOMES: { [K in keyof OutcomeValues]: Rendering<OutcomeValues[K]> } = {
  session: {
    json: ({ reply }, s) => sendContent(reply, 200, loginContent(s)),
    page: notAsked("a session"),
  },

  authorizationCode: {
    json: notAsked("an authorization code"),
    // RFC 6749 section 4.1.2: the code (and state) at the exact redirect URI, 303 after the form.
    page: (v, c) =>
      redirectToClient(v.h, v.reply, 303, v.pending.redirectUri, { code: c.code, state: v.pending.state }),
  },

  // 412: `content.url` asks for another code (GET, routes/activityid/resend.ts); over the resend limit `errors.subcode` 429.
  confirmationRequired: {
    json: ({ reply, publicBaseUrl }, c) => {
      if (c.resendLimited) reply.header("retry-after", String(c.retryAfterSeconds));
      return sendError(reply, "USER_UNCONFIRMED", {
        subcode: c.resendLimited ? 429 : undefined,
        content: { url: resendUrl(publicBaseUrl, c.resendToken) },
      });
    },
    // The page asks for the code that was sent and continues the login (the flow token); an account
    // awaiting activation (assisted registration) is told to use its activation link.
    page: (v, c) => {
      if (c.flowToken && !c.activationRequired) return showConfirmPage(v, c);
      const t = TEXTS[v.lang];
      const links = [backToSignIn(v)];
      const h = HOSTED_TEXTS[v.lang];
      const resendLabel = c.activationRequired ? h.resendActivation : t.resendLink;
      if (!c.resendLimited)
        links.unshift({ href: resendUrl(v.h.deps.config.publicBaseUrl, c.resendToken), label: resendLabel });
      const [title, text] = c.activationRequired
        ? [h.activationTitle, h.activationText]
        : [t.unconfirmedTitle, t.unconfirmedText];
      return sendPage(
        v.reply,
        403,
        messagePage(v.lang, title, c.resendLimited ? `${text} ${t.resendLimited}` : text, links, v.app.displayName),
      );
    },
  },

  // 428: finish with `/user/access/mfa` (JSON) or the code page; a user without a factor enrols on the hosted page.
  mfaRequired: {
    json: ({ reply }, m) => sendError(reply, "MFA_REQUIRED", { content: { mfa: mfaContent(m) } }),
    page: (v, m) => {
      if (!m.enroll && m.mfaToken) return showMfa(v, m.mfaToken);
      if (m.enroll && m.mfaToken) return showEnrolPage(v, m.mfaToken);
      const t = TEXTS[v.lang];
      return sendPage(
        v.reply,
        428,
        messagePage(v.lang, t.mfaTitle, t.mfaEnrollText, [backToSignIn(v)], v.app.displayName),
      );
    },
  },

  // 451: the hosted terms page's link and every assertion still to answer.
  termsRequired: {
    json: ({ reply, publicBaseUrl }, terms) => {
      const items = terms.assertions.map((a) => assertionItem(a, reply.request.locale));
      return sendError(reply, "TERMS_NOT_ACCEPTED", {
        content: { url: termsUrl(publicBaseUrl, terms.termsToken), assertions: { objectType: "assertions", items } },
      });
    },
    // The assertions to accept, as checkboxes on the page (the flow token continues the login).
    page: (v, terms) => {
      if (terms.flowToken) return showTermsPage(v, terms);
      const t = TEXTS[v.lang];
      const links = [
        { href: termsUrl(v.h.deps.config.publicBaseUrl, terms.termsToken), label: t.termsLink },
        backToSignIn(v),
      ];
      return sendPage(v.reply, 451, messagePage(v.lang, t.termsTitle, t.termsText, links, v.app.displayName));
    },
  },

  // 206 (fca): the login's content plus `errors.items`, one per missing field.
  profileIncomplete: {
    json: ({ reply }, p) => {
      if (p.grant.case !== "session") return notAsked("an authorization code")();
      const items = p.missingFields.map((f) => ({ field: `object.datas.${f}`, code: "required" }));
      return sendPartial(reply, loginContent(p.grant.value), "account_incomplete", items);
    },
    // A hosted login asks for the data before its code (profileRequired); a code issued anyway goes to the client.
    page: (v, p) =>
      p.grant.case === "authorizationCode"
        ? OUTCOMES.authorizationCode.page(v, p.grant.value)
        : notAsked("a session")(),
  },

  // 206 of a page: the hosted login's user lacks mandatory data; the page asks for it, then the code.
  profileRequired: {
    json: notAsked("a page's profile step"),
    page: (v, p) => showProfilePage(v, p),
  },
};

function caseOf(outcome: LoginOutcome | undefined): OutcomeCase {
  const o = outcome?.outcome;
  if (!o?.case) throw new Error("the login answered no outcome");
  return o;
}

/** The JSON answer of a login's outcome (`/user/access`, `/user/access/mfa`). */
export function sendLoginOutcome(view: JsonView, outcome: LoginOutcome | undefined): FastifyReply {
  const o = caseOf(outcome);
  return (OUTCOMES[o.case] as Rendering<typeof o.value>).json(view, o.value);
}

/** The hosted login's page (or redirect) for a login's outcome. */
export function showLoginOutcome(
  view: HostedView,
  outcome: LoginOutcome | undefined,
): FastifyReply | Promise<FastifyReply> {
  const o = caseOf(outcome);
  return (OUTCOMES[o.case] as Rendering<typeof o.value>).page(view, o.value);
}

/** What an error's answer carries besides the envelope, from its typed details: a step-up's 428 carries MfaRequired. */
export function errorContent(err: ConnectError): Record<string, unknown> | undefined {
  const mfa = err.findDetails(MfaRequiredSchema)[0];
  return mfa ? { mfa: mfaContent(mfa) } : undefined;
}
