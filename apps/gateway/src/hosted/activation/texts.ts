import type { Locale } from "@gatehouse/errors";

/** The texts of the activation page of an assisted registration's link (en, es). */
export const ACTIVATION_TEXTS = {
  en: {
    activateTitle: "Activate your account",
    activateLead: "Choose the password you will sign in with.",
    activatePasswordless: "Confirm to activate your account. You will sign in with one-time codes.",
    activateButton: "Activate account",
    activatedTitle: "Your account is ready",
    activatedText: (app: string) => `You can now sign in to ${app}.`,
    continueTo: (app: string) => `Continue to ${app}`,
    activateInvalidTitle: "This link does not work",
    activateInvalidText:
      "This activation link is not valid, was already used, or has expired. Ask the application that created your account to send a new one.",
    forbidden: "This form must be sent from the page that showed it.",
  },
  es: {
    activateTitle: "Activa tu cuenta",
    activateLead: "Elige la contraseña con la que iniciarás sesión.",
    activatePasswordless: "Confirma para activar tu cuenta. Iniciarás sesión con códigos de un solo uso.",
    activateButton: "Activar cuenta",
    activatedTitle: "Tu cuenta está lista",
    activatedText: (app: string) => `Ya puedes iniciar sesión en ${app}.`,
    continueTo: (app: string) => `Continuar a ${app}`,
    activateInvalidTitle: "Este enlace no funciona",
    activateInvalidText:
      "Este enlace de activación no es válido, ya se usó o ha caducado. Pide a la aplicación que creó tu cuenta que te envíe otro.",
    forbidden: "Este formulario debe enviarse desde la página que lo mostró.",
  },
} satisfies Record<Locale, unknown>;
