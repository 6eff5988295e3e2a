import type { Locale } from "@gatehouse/errors";

/** A message page's title and text. */
type Message = [title: string, text: string];

/** What the resend link did: sent, over the limit, a bad token, the delivery not queued. */
export type ResendOutcome = "sent" | "limited" | "invalid" | "failed";

/** The texts of the confirmation link's pages and of the resend link of a 412 answer (en, es). */
export const CONFIRMATION_TEXTS: Record<
  Locale,
  {
    confirmed: Message;
    linkInvalid: Message;
    resend: Record<ResendOutcome, Message>;
    /** The resend link's form, when the application asks for the bot check first (section 17). */
    ask: Message;
    forbidden: string;
  }
> = {
  en: {
    confirmed: ["Confirmed", "Your address is confirmed. You can close this page."],
    linkInvalid: ["Link not valid", "This confirmation link is not valid, was used or has expired."],
    resend: {
      sent: [
        "Code sent",
        "If your address still needs to be confirmed, a new confirmation code is on its way. Earlier codes and links keep working.",
      ],
      limited: ["Too many requests", "Too many confirmation messages were sent. Please try again later."],
      invalid: ["Link not valid", "This link is not valid or has expired. Log in again to get a new one."],
      failed: ["Not sent", "The confirmation code could not be sent right now. Please try again later."],
    },
    ask: [
      "Get a new code",
      "We will send a new confirmation code to your address that still needs to be confirmed. Earlier codes and links keep working.",
    ],
    forbidden: "This form was sent from another site. Open the link from your message again.",
  },
  es: {
    confirmed: ["Confirmado", "Tu dirección está confirmada. Puedes cerrar esta página."],
    linkInvalid: ["Enlace no válido", "Este enlace de confirmación no es válido, ya se usó o ha caducado."],
    resend: {
      sent: [
        "Código enviado",
        "Si tu dirección aún debe confirmarse, te hemos enviado un código de confirmación nuevo. Los códigos y enlaces anteriores siguen valiendo.",
      ],
      limited: ["Demasiadas solicitudes", "Se han enviado demasiados mensajes de confirmación. Inténtalo más tarde."],
      invalid: [
        "Enlace no válido",
        "Este enlace no es válido o ha caducado. Vuelve a iniciar sesión para obtener otro.",
      ],
      failed: ["No enviado", "No se ha podido enviar el código de confirmación ahora. Inténtalo más tarde."],
    },
    ask: [
      "Recibir un código nuevo",
      "Te enviaremos un código de confirmación nuevo a tu dirección que falta por confirmar. Los códigos y enlaces anteriores siguen valiendo.",
    ],
    forbidden: "Este formulario se envió desde otro sitio. Vuelve a abrir el enlace de tu mensaje.",
  },
};
