import type { Locale } from "@gatehouse/errors";

/** The texts of the terms page a 451 answer links to (`content.url`) (en, es). */
export const TERMS_TEXTS = {
  en: {
    title: "Terms and conditions",
    intro: "Please read and answer the following before you sign in.",
    requiredMark: "(required)",
    submit: "Continue",
    mandatoryMissing: "You must accept every item marked as required to continue.",
    changed: "The terms have changed since this page was shown. Please read them again.",
    doneTitle: "Thank you",
    doneText: "Your answers were recorded. You can now sign in again from the application.",
    invalidTitle: "Link not valid",
    invalidText: "This link is not valid or has expired. Sign in again to get a new one.",
    forbidden: "This form must be sent from the page that showed it.",
  },
  es: {
    title: "Términos y condiciones",
    intro: "Lee y responde lo siguiente antes de iniciar sesión.",
    requiredMark: "(obligatorio)",
    submit: "Continuar",
    mandatoryMissing: "Debes aceptar todos los elementos marcados como obligatorios para continuar.",
    changed: "Los términos han cambiado desde que se mostró esta página. Vuelve a leerlos.",
    doneTitle: "Gracias",
    doneText: "Hemos registrado tus respuestas. Ya puedes volver a iniciar sesión desde la aplicación.",
    invalidTitle: "Enlace no válido",
    invalidText: "Este enlace no es válido o ha caducado. Vuelve a iniciar sesión para obtener otro.",
    forbidden: "Este formulario debe enviarse desde la página que lo mostró.",
  },
} satisfies Record<Locale, Record<string, string>>;
