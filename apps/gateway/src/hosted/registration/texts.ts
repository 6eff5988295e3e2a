import type { Locale } from "@gatehouse/errors";

/** The texts of the registration pages: the form, a two-step entry point's second page, an assisted one (en, es). */
export const REGISTRATION_TEXTS = {
  en: {
    haveAccount: "Already have an account?",
    registerTitle: "Create your account",
    registerLead: (app: string) => `to continue to ${app}`,
    stepOf: (n: number, of: number) => `Step ${n} of ${of}`,
    createButton: "Create account",
    step2Title: "A few more details",
    step2Lead: (app: string) => `${app} needs these to finish your account.`,
    assistedTitle: (app: string) => `Accounts are created by ${app}`,
    assistedText: (app: string) =>
      `You cannot register here: ${app} creates accounts for its users. If they created one for you, look for the activation message in your inbox and follow its link.`,
  },
  es: {
    haveAccount: "¿Ya tienes una cuenta?",
    registerTitle: "Crea tu cuenta",
    registerLead: (app: string) => `para continuar en ${app}`,
    stepOf: (n: number, of: number) => `Paso ${n} de ${of}`,
    createButton: "Crear cuenta",
    step2Title: "Unos datos más",
    step2Lead: (app: string) => `${app} los necesita para completar tu cuenta.`,
    assistedTitle: (app: string) => `Las cuentas las crea ${app}`,
    assistedText: (app: string) =>
      `No puedes registrarte aquí: ${app} crea las cuentas de sus usuarios. Si te ha creado una, busca el mensaje de activación en tu correo y sigue su enlace.`,
  },
} satisfies Record<Locale, unknown>;
