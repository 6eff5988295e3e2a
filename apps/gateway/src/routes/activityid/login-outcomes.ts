import type { FastifyReply } from "fastify";
import type { LoginOutcome } from "@gatehouse/proto";
import { assertionItem } from "../../http/terms.ts";
import { sendContent, sendError } from "../../http/envelope.ts";
import { loginContent, mfaContent } from "../../http/login-json.ts";
import { notAsked, renderOutcome, type OutcomeTable } from "../../http/login-outcome.ts";
import { sendPartial } from "../../http/partial.ts";
import { linkWithToken, RESEND_PATH, TERMS_PATH } from "../../hosted/paths.ts";

// The JSON answer of every end of a login (`/user/access`, `/user/access/mfa`);
// the hosted login's pages are the other table (hosted/authorize/outcome-pages.ts).

/** Where a JSON route answers. */
export interface JsonView {
  reply: FastifyReply;
  publicBaseUrl: string;
}

const JSON_OUTCOMES: OutcomeTable<JsonView, FastifyReply> = {
  session: ({ reply }, s) => sendContent(reply, 200, loginContent(s)),

  authorizationCode: notAsked("an authorization code"),

  // 412: `content.url` asks for another code (GET, RESEND_PATH); over the resend limit `errors.subcode` 429.
  confirmationRequired: ({ reply, publicBaseUrl }, c) => {
    if (c.resendLimited) reply.header("retry-after", String(c.retryAfterSeconds));
    return sendError(reply, "USER_UNCONFIRMED", {
      subcode: c.resendLimited ? 429 : undefined,
      content: { url: linkWithToken(publicBaseUrl, RESEND_PATH, c.resendToken) },
    });
  },

  // 428: finish with `/user/access/mfa`.
  mfaRequired: ({ reply }, m) => sendError(reply, "MFA_REQUIRED", { content: { mfa: mfaContent(m) } }),

  // 451: the hosted terms page's link and every assertion still to answer.
  termsRequired: ({ reply, publicBaseUrl }, terms) => {
    const items = terms.assertions.map((a) => assertionItem(a, reply.request.locale));
    return sendError(reply, "TERMS_NOT_ACCEPTED", {
      content: {
        url: linkWithToken(publicBaseUrl, TERMS_PATH, terms.termsToken),
        assertions: { objectType: "assertions", items },
      },
    });
  },

  // 206 (fca): the login's content plus `errors.items`, one per missing field.
  profileIncomplete: ({ reply }, p) => {
    if (p.grant.case !== "session") return notAsked("an authorization code")();
    const items = p.missingFields.map((f) => ({ field: `object.datas.${f}`, code: "required" }));
    return sendPartial(reply, loginContent(p.grant.value), "account_incomplete", items);
  },

  profileRequired: notAsked("a page's profile step"),
  passkeyOffer: notAsked("a page's passkey offer"),
};

/** The JSON answer of a login's outcome (`/user/access`, `/user/access/mfa`). */
export const sendLoginOutcome = (view: JsonView, outcome: LoginOutcome | undefined): FastifyReply =>
  renderOutcome(JSON_OUTCOMES, view, outcome);
