import type { FastifyReply } from "fastify";
import type { HostedView } from "./view.ts";
import { sendPage } from "../kit/send.ts";
import { messagePage } from "../kit/message-page.ts";
import { TEXTS } from "./texts.ts";
import { authorizeUrl } from "./context.ts";
import type { FormField } from "../kit/form-model.ts";

/** Data fields typed on a page as the contract's `datas` nodes; blank ones are left out (not sent is not changed). */
export function dataOf(values: Record<string, string>): Record<string, { objectType: "data"; value: string }> {
  return Object.fromEntries(
    Object.entries(values)
      .filter(([, v]) => v !== "")
      .map(([k, v]) => [k, { objectType: "data" as const, value: v }]),
  );
}

/** The values of a form's inputs as typed (trimmed); a checkbox is "true" when checked. Never the password. */
export function valuesOf(fields: FormField[], form: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    if (f.type === "password") continue;
    if (f.type === "checkbox") {
      if (form[f.name] !== undefined) out[f.name] = "true";
    } else out[f.name] = (form[f.name] ?? "").trim();
  }
  return out;
}

/** Inputs left blank that the form requires: each gets a `required` violation (named like the users service's). */
export function blanks(fields: FormField[], values: Record<string, string>): { field: string; code: string }[] {
  return fields
    .filter((f) => f.required && f.type !== "password" && !values[f.name])
    .map((f) => ({ field: f.name, code: "required" }));
}

/** The page of a form that can no longer continue (the entry point is gone, the flow expired): start again. */
export function expired(v: HostedView, status = 400): FastifyReply {
  const t = TEXTS[v.lang];
  return sendPage(
    v.reply,
    status,
    messagePage(v.lang, t.errorTitle, t.formExpired, [{ href: authorizeUrl(v.pending), label: t.backToSignIn }]),
  );
}
