import type { DeliveryLocale, DeliveryPurpose } from "@gatehouse/jobs";

// Texts of the confirmation messages (contract section 5): the email carries the
// code and the link, the SMS the code only. Expiry is not stated: it is configurable
// on the users side and the worker does not know it.

export function confirmationLink(baseUrl: string, linkToken: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/activityid/v1/user/confirm?token=${encodeURIComponent(linkToken)}`;
}

const SUBJECTS: Record<DeliveryLocale, Record<DeliveryPurpose, string>> = {
  en: {
    register: "Confirm your account",
    change: "Confirm your new contact details",
    resend: "Your confirmation code",
  },
  es: {
    register: "Confirma tu cuenta",
    change: "Confirma tus nuevos datos de contacto",
    resend: "Tu código de confirmación",
  },
};

export function emailMessage(locale: DeliveryLocale, purpose: DeliveryPurpose, code: string, link: string): { subject: string; text: string } {
  const subject = SUBJECTS[locale][purpose];
  const text =
    locale === "es"
      ? [
          `Tu código de confirmación es: ${code}`,
          "",
          "También puedes confirmar abriendo este enlace:",
          link,
          "",
          "Si no has solicitado este mensaje, ignóralo.",
        ]
      : [
          `Your confirmation code is: ${code}`,
          "",
          "You can also confirm by opening this link:",
          link,
          "",
          "If you did not ask for this message, ignore it.",
        ];
  return { subject, text: text.join("\n") + "\n" };
}

export function smsText(locale: DeliveryLocale, code: string): string {
  return locale === "es" ? `Tu código de confirmación es ${code}` : `Your confirmation code is ${code}`;
}
