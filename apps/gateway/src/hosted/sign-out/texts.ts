import type { Locale } from "@gatehouse/errors";

/** The texts of RP-initiated logout's page (en, es). */
export const SIGN_OUT_TEXTS = {
  en: {
    loggedOutTitle: "Signed out",
    loggedOutText: "You have signed out.",
    logoutInvalid: "The sign-out request is not valid.",
  },
  es: {
    loggedOutTitle: "Sesión cerrada",
    loggedOutText: "Has cerrado la sesión.",
    logoutInvalid: "La petición de cierre de sesión no es válida.",
  },
} satisfies Record<Locale, unknown>;
