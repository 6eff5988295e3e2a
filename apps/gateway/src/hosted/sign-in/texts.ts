import type { Locale } from "@gatehouse/errors";

/** The texts of the sign-in pages: the login page and the code sign-in page (en, es). */
export const SIGN_IN_TEXTS = {
  en: {
    signInTitle: "Sign in",
    signInLead: (app: string) => `to continue to ${app}`,
    signIn: "Sign in",
    emailMeCode: "Email me a code",
    textMeCode: "Text me a code",
    noAccount: "New here?",
    createAccount: "Create an account",
    // The code sign-in page.
    codeTitleEmail: "Check your email",
    codeTitlePhone: "Check your phone",
    codeLead: "Enter the 6-digit code we sent to",
    codeHint: "It works once, for 10 minutes. No message? Check the address, or ask for a new code.",
    validationHint: "For your security, also confirm these details of your account.",
    differentAccount: "Use a different account",
    usePassword: "Sign in with your password",
  },
  es: {
    signInTitle: "Inicia sesión",
    signInLead: (app: string) => `para continuar en ${app}`,
    signIn: "Iniciar sesión",
    emailMeCode: "Envíame un código por correo",
    textMeCode: "Envíame un código por SMS",
    noAccount: "¿Eres nuevo?",
    createAccount: "Crear una cuenta",
    // The code sign-in page.
    codeTitleEmail: "Revisa tu correo",
    codeTitlePhone: "Revisa tu teléfono",
    codeLead: "Escribe el código de 6 cifras que hemos enviado a",
    codeHint: "Sirve una vez, durante 10 minutos. ¿No te llega? Revisa la dirección o pide un código nuevo.",
    validationHint: "Por tu seguridad, confirma también estos datos de tu cuenta.",
    differentAccount: "Usar otra cuenta",
    usePassword: "Iniciar sesión con tu contraseña",
  },
} satisfies Record<Locale, unknown>;
