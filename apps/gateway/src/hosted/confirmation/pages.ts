import type { FastifyReply } from "fastify";
import type { Locale } from "@gatehouse/errors";
import { renderMessage } from "../kit/render.ts";
import { sendPage } from "../kit/send.ts";
import { CONFIRMATION_TEXTS, type ResendOutcome } from "./texts.ts";

const message = (reply: FastifyReply, status: number, lang: Locale, [title, text]: [string, string]) =>
  sendPage(reply, status, renderMessage({ lang, title, text }));

/** The page after a confirmation link (CONFIRMED_PATH), or of a link that does not work. */
export const confirmationPage = (reply: FastifyReply, lang: Locale, ok: boolean) =>
  ok
    ? message(reply, 200, lang, CONFIRMATION_TEXTS[lang].confirmed)
    : message(reply, 400, lang, CONFIRMATION_TEXTS[lang].linkInvalid);

const RESEND_STATUS: Record<ResendOutcome, number> = { sent: 200, limited: 429, invalid: 400, failed: 502 };

/** The page of the resend link (RESEND_PATH) by what happened. */
export const resendPage = (reply: FastifyReply, lang: Locale, outcome: ResendOutcome) =>
  message(reply, RESEND_STATUS[outcome], lang, CONFIRMATION_TEXTS[lang].resend[outcome]);
