import type { FastifyBaseLogger } from "fastify";
import type { Altcha } from "@gatehouse/abuse";
import type { Locale } from "@gatehouse/errors";
import { captchaRefused } from "@gatehouse/rpc";
import type { CaptchaBox } from "../kit/render.ts";
import { KIT_TEXTS } from "../kit/texts.ts";
import { ALTCHA_STYLESHEET, altchaScripts } from "../kit/altcha-files.ts";
import type { PageContext } from "./context.ts";

/** The widget with a fresh signed challenge, for any hosted form that asks for the check. */
export async function altchaBox(altcha: Altcha, lang: Locale, purpose: "sign-up" | "code"): Promise<CaptchaBox> {
  return {
    challenge: JSON.stringify(await altcha.challenge()),
    language: lang === "es" ? "es-es" : "en",
    noscript: KIT_TEXTS[lang].captcha[purpose === "code" ? "noscriptCode" : "noscript"],
    modules: altchaScripts(lang),
    stylesheet: ALTCHA_STYLESHEET,
  };
}

/**
 * Whether a posted solution passes: right, unexpired, unused, and never
 * without the checker. A refusal is counted in /metrics by reason.
 */
export async function altchaSolved(
  altcha: Altcha | undefined,
  payload: string | undefined,
  log: FastifyBaseLogger,
  facts: Record<string, unknown>,
): Promise<boolean> {
  const verdict = altcha ? await altcha.verify(payload || undefined) : "invalid";
  if (verdict === "ok") return true;
  captchaRefused.inc({ reason: verdict });
  log.info({ ...facts, verdict }, "hosted form refused by the ALTCHA check");
  return false;
}

/** The widget of a form of an application with `captcha: "altcha"`; undefined otherwise. */
export async function captchaBox(ctx: PageContext, purpose: "sign-up" | "code"): Promise<CaptchaBox | undefined> {
  if (!ctx.captcha || !ctx.h.deps.altcha) return undefined;
  return altchaBox(ctx.h.deps.altcha, ctx.lang, purpose);
}

/** Whether a posted form may go on: always when the application asks for no check; else only when solved (altchaSolved). */
export async function captchaPassed(ctx: PageContext, form: Record<string, string>): Promise<boolean> {
  if (!ctx.captcha) return true;
  return altchaSolved(ctx.h.deps.altcha, form.altcha, ctx.req.log, { entrypointId: ctx.ep.id });
}
