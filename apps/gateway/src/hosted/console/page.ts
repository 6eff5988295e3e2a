import type { FastifyReply } from "fastify";
import type { Locale } from "@gatehouse/errors";
import { renderMessage } from "../kit/render.ts";
import { sendPage } from "../kit/send.ts";
import { CONSOLE_TEXTS } from "./texts.ts";

/** /console without its build: how to make one (503). */
export const consoleNotBuiltPage = (reply: FastifyReply, lang: Locale) => {
  const t = CONSOLE_TEXTS[lang];
  return sendPage(reply, 503, renderMessage({ lang, title: t.title, text: t.text }));
};
