import { captchaRefused } from "@gatehouse/rpc";
import type { CaptchaBox } from "../kit/render.ts";
import { KIT_TEXTS } from "../kit/texts.ts";
import { ALTCHA_STYLESHEET, altchaScripts } from "../kit/altcha-files.ts";
import type { PageContext } from "./context.ts";

/** The widget of a form of an application with `captcha: "altcha"`: a fresh signed challenge; undefined otherwise. */
export async function captchaBox(ctx: PageContext, purpose: "sign-up" | "code"): Promise<CaptchaBox | undefined> {
  if (!ctx.captcha || !ctx.h.deps.altcha) return undefined;
  return {
    challenge: JSON.stringify(await ctx.h.deps.altcha.challenge()),
    language: ctx.lang === "es" ? "es-es" : "en",
    noscript: KIT_TEXTS[ctx.lang].captcha[purpose === "code" ? "noscriptCode" : "noscript"],
    modules: altchaScripts(ctx.lang),
    stylesheet: ALTCHA_STYLESHEET,
  };
}

/**
 * Whether a posted form may go on: always when the application asks for no
 * check; else only with a right, unexpired, unused solution (`altcha`), and
 * never without the checker. A refusal is counted in /metrics by reason.
 */
export async function captchaPassed(ctx: PageContext, form: Record<string, string>): Promise<boolean> {
  if (!ctx.captcha) return true;
  const verdict = ctx.h.deps.altcha ? await ctx.h.deps.altcha.verify(form.altcha || undefined) : "invalid";
  if (verdict === "ok") return true;
  captchaRefused.inc({ reason: verdict });
  ctx.req.log.info({ entrypointId: ctx.ep.id, verdict }, "hosted form refused by the ALTCHA check");
  return false;
}
