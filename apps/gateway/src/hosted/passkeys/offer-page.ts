import type { FastifyReply } from "fastify";
import type { PasskeyOffer } from "@gatehouse/proto";
import { appNameOf, FORM_ACTION, formTokenOf } from "../journey/context.ts";
import type { HostedView } from "../journey/view.ts";
import { renderPage } from "../kit/render.ts";
import { SCRIPT_POLICY, sendPage } from "../kit/send.ts";
import { PASSKEY_SCRIPTS } from "../paths.ts";
import { PASSKEY_TEXTS } from "./texts.ts";

/**
 * The optional offer after a hosted sign-in or registration (contract
 * section 12): "Create a passkey" (the script runs the browser's ceremony
 * and posts its answer) or "Not now" (a plain submit); both continue the
 * login to its code with the flow token. The users service makes the offer
 * only to a browser whose script reported a platform authenticator.
 */
export function showPasskeyOffer(v: HostedView, offer: PasskeyOffer): FastifyReply {
  const t = PASSKEY_TEXTS[v.lang];
  const html = renderPage("passkey-offer", {
    lang: v.lang,
    appName: appNameOf(v),
    scripts: PASSKEY_SCRIPTS,
    title: t.offerTitle,
    lead: t.offerLead(appNameOf(v)),
    ...(offer.retry ? { alert: t.retry } : {}),
    failed: t.createFailed,
    create: t.create,
    later: t.later,
    action: FORM_ACTION,
    options: JSON.stringify(offer.publicKey ?? {}),
    hidden: [
      { name: "form_token", value: formTokenOf(v) },
      { name: "intent", value: "passkey-offer" },
      { name: "flow_token", value: offer.flowToken },
    ],
  });
  return sendPage(v.reply, offer.retry ? 400 : 200, html, SCRIPT_POLICY);
}
