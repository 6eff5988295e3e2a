import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import Type from "typebox";
import { errorFacts, type Locale } from "@gatehouse/errors";
import type { GatewayDeps } from "../../deps.ts";
import { renderMessage } from "../../hosted/kit/render.ts";
import { sendPage as sendHostedPage } from "../../hosted/kit/send.ts";

/** The 412 login answer's `content.url` points here, with `?token=` (a sealed user, key and expiry). */
export const RESEND_PATH = "/activityid/v1/user/confirm/resend";

type Outcome = "sent" | "limited" | "invalid" | "failed";

const TEXTS: Record<Locale, Record<Outcome, [title: string, text: string]>> = {
  en: {
    sent: [
      "Code sent",
      "If your address still needs to be confirmed, a new confirmation code is on its way. Earlier codes and links keep working.",
    ],
    limited: ["Too many requests", "Too many confirmation messages were sent. Please try again later."],
    invalid: ["Link not valid", "This link is not valid or has expired. Log in again to get a new one."],
    failed: ["Not sent", "The confirmation code could not be sent right now. Please try again later."],
  },
  es: {
    sent: [
      "Código enviado",
      "Si tu dirección aún debe confirmarse, te hemos enviado un código de confirmación nuevo. Los códigos y enlaces anteriores siguen valiendo.",
    ],
    limited: ["Demasiadas solicitudes", "Se han enviado demasiados mensajes de confirmación. Inténtalo más tarde."],
    invalid: ["Enlace no válido", "Este enlace no es válido o ha caducado. Vuelve a iniciar sesión para obtener otro."],
    failed: ["No enviado", "No se ha podido enviar el código de confirmación ahora. Inténtalo más tarde."],
  },
};

const STATUS: Record<Outcome, number> = { sent: 200, limited: 429, invalid: 400, failed: 502 };

/** The hosted pages' layout and headers (no-store, no framing, no script). */
function sendPage(reply: FastifyReply, lang: Locale, outcome: Outcome) {
  const [title, text] = TEXTS[lang][outcome];
  return sendHostedPage(reply, STATUS[outcome], renderMessage({ lang, title, text }));
}

/**
 * GET {base_url}/activityid/v1/user/confirm/resend?token=: sends a new
 * confirmation code and link (earlier ones stay valid) and answers a hosted
 * page: 200 sent (also when there is nothing left to confirm: no information
 * leak), 429 + Retry-After over the resend limit (the login's counter),
 * 400 invalid or expired token, 502 when the delivery could not be queued.
 */
export const resendRoute: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  app.get(
    RESEND_PATH,
    {
      // A HEAD (link preview, prefetch) must not send messages.
      exposeHeadRoute: false,
      schema: {
        summary: "Send the confirmation code again (the 412 login answer's content.url)",
        tags: ["users"],
        querystring: Type.Object(
          { token: Type.Optional(Type.String({ maxLength: 1000 })) },
          { additionalProperties: true },
        ),
      },
    },
    async (req, reply) => {
      const token = req.query.token ?? "";
      if (!token) return sendPage(reply, req.locale, "invalid");
      try {
        await deps.users!.resendConfirmation({
          caller: { locale: req.locale, clientAddress: req.ip },
          resendToken: token,
        });
        return sendPage(reply, req.locale, "sent");
      } catch (err) {
        const f = errorFacts(err);
        if (f.reason === "INVALID_CODE") return sendPage(reply, req.locale, "invalid");
        if (f.reason === "RATE_LIMITED") {
          if (f.metadata.retry_after) reply.header("retry-after", f.metadata.retry_after);
          return sendPage(reply, req.locale, "limited");
        }
        if (f.reason === "CONFIRMATION_NOT_QUEUED") return sendPage(reply, req.locale, "failed");
        throw err;
      }
    },
  );
};
