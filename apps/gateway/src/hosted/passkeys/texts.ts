import type { Locale } from "@gatehouse/errors";

/** The texts of passkeys on the hosted pages: the login page's button and messages, the offer page (en, es). */
export const PASSKEY_TEXTS = {
  en: {
    signInWithPasskey: "Sign in with a passkey",
    cancelled: "The passkey sign-in did not finish. Try again, or use your password.",
    rejected: "That passkey didn't work. Try again, or sign in another way.",
    offerTitle: "Create a passkey",
    offerLead: (app: string) =>
      `Next time, sign in to ${app} with your fingerprint, face or screen lock instead of a password.`,
    create: "Create a passkey",
    later: "Not now",
    createFailed: "The passkey was not created. Try again, or choose Not now.",
    retry: "That passkey could not be saved. Try again, or choose Not now.",
  },
  es: {
    signInWithPasskey: "Iniciar sesión con una llave de acceso",
    cancelled: "El inicio de sesión con la llave de acceso no terminó. Inténtalo de nuevo o usa tu contraseña.",
    rejected: "Esa llave de acceso no ha funcionado. Inténtalo de nuevo o inicia sesión de otra forma.",
    offerTitle: "Crea una llave de acceso",
    offerLead: (app: string) =>
      `La próxima vez, inicia sesión en ${app} con tu huella, tu cara o el bloqueo de pantalla en lugar de una contraseña.`,
    create: "Crear una llave de acceso",
    later: "Ahora no",
    createFailed: "No se ha creado la llave de acceso. Inténtalo de nuevo o elige Ahora no.",
    retry: "No se ha podido guardar esa llave de acceso. Inténtalo de nuevo o elige Ahora no.",
  },
} satisfies Record<Locale, unknown>;
