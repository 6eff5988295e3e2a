import type { DeliveryLocale, DeliveryPurpose } from "@gatehouse/jobs";

// Texts of the messages (contract sections 5 and 8): a confirmation email
// carries the code and the link, its SMS the code; a sign-in code (code
// sign-in) is a code only; an activation (assisted registration) is a link
// only, by email or SMS. Confirmation expiry is not stated: it is
// configurable on the users side and the worker does not know it; sign-in
// codes (10 min) and activation links (7 days) have fixed lifetimes.

export function confirmationLink(baseUrl: string, linkToken: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/activityid/v1/user/confirm?token=${encodeURIComponent(linkToken)}`;
}

/** The hosted activation page of an assisted registration (set the password), in the message's language. */
export function activationLink(baseUrl: string, linkToken: string, locale?: DeliveryLocale): string {
  const lang = locale ? `&ui_locales=${locale}` : "";
  return `${baseUrl.replace(/\/+$/, "")}/activityid/v1/user/activate?token=${encodeURIComponent(linkToken)}${lang}`;
}

/** The link a message of this purpose carries, if any. */
export function linkFor(
  purpose: DeliveryPurpose,
  baseUrl: string,
  linkToken: string,
  locale?: DeliveryLocale,
): string | undefined {
  if (purpose === "access_code") return undefined;
  return purpose === "activation" ? activationLink(baseUrl, linkToken, locale) : confirmationLink(baseUrl, linkToken);
}

const SUBJECTS: Record<DeliveryLocale, Record<DeliveryPurpose, string>> = {
  en: {
    register: "Confirm your account",
    change: "Confirm your new contact details",
    resend: "Your confirmation code",
    access_code: "Your sign-in code",
    activation: "Activate your account",
  },
  es: {
    register: "Confirma tu cuenta",
    change: "Confirma tus nuevos datos de contacto",
    resend: "Tu código de confirmación",
    access_code: "Tu código de inicio de sesión",
    activation: "Activa tu cuenta",
  },
};

type Body = (code: string, link: string) => string[];

const CONFIRMATION: Record<DeliveryLocale, Body> = {
  en: (code, link) => [
    `Your confirmation code is: ${code}`,
    "",
    "You can also confirm by opening this link:",
    link,
    "",
    "If you did not ask for this message, ignore it.",
  ],
  es: (code, link) => [
    `Tu código de confirmación es: ${code}`,
    "",
    "También puedes confirmar abriendo este enlace:",
    link,
    "",
    "Si no has solicitado este mensaje, ignóralo.",
  ],
};

const ACCESS_CODE: Record<DeliveryLocale, Body> = {
  en: (code) => [
    `Your sign-in code is: ${code}`,
    "",
    "It works once, for 10 minutes. Never share it: nobody from the service will ask you for it.",
    "",
    "If you did not try to sign in, ignore this message; your account stays safe.",
  ],
  es: (code) => [
    `Tu código de inicio de sesión es: ${code}`,
    "",
    "Sirve una sola vez, durante 10 minutos. No lo compartas: nadie del servicio te lo pedirá.",
    "",
    "Si no has intentado iniciar sesión, ignora este mensaje; tu cuenta sigue segura.",
  ],
};

const ACTIVATION: Record<DeliveryLocale, Body> = {
  en: (_code, link) => [
    "An account was created for you. To start using it, choose your password here:",
    link,
    "",
    "The link works once, for 7 days. If you do not know why you got this message, ignore it.",
  ],
  es: (_code, link) => [
    "Se ha creado una cuenta para ti. Para empezar a usarla, elige tu contraseña aquí:",
    link,
    "",
    "El enlace sirve una sola vez, durante 7 días. Si no sabes por qué has recibido este mensaje, ignóralo.",
  ],
};

const bodyOf = (purpose: DeliveryPurpose): Record<DeliveryLocale, Body> =>
  purpose === "access_code" ? ACCESS_CODE : purpose === "activation" ? ACTIVATION : CONFIRMATION;

export function emailMessage(
  locale: DeliveryLocale,
  purpose: DeliveryPurpose,
  code: string,
  link: string,
): { subject: string; text: string } {
  return { subject: SUBJECTS[locale][purpose], text: bodyOf(purpose)[locale](code, link).join("\n") + "\n" };
}

/** The SMS of a confirmation or a sign-in code carries the code; an activation carries its link. */
export function smsText(
  locale: DeliveryLocale,
  code: string,
  purpose: DeliveryPurpose = "register",
  link = "",
): string {
  const es = locale === "es";
  if (purpose === "access_code")
    return es
      ? `Tu código de inicio de sesión es ${code}. Caduca en 10 minutos.`
      : `Your sign-in code is ${code}. It expires in 10 minutes.`;
  if (purpose === "activation")
    return es
      ? `Activa tu cuenta y elige tu contraseña: ${link}`
      : `Activate your account and choose your password: ${link}`;
  return es ? `Tu código de confirmación es ${code}` : `Your confirmation code is ${code}`;
}
