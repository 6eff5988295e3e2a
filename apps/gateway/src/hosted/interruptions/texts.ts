import type { Locale } from "@gatehouse/errors";

/** The texts of a sign-in's interruptions: the confirmation code, the terms to accept, the missing data (en, es). */
export const INTERRUPTION_TEXTS = {
  en: {
    confirmTitleEmail: "Confirm your email",
    confirmTitlePhone: "Confirm your phone number",
    confirmLeadEmail: "Enter the 6-digit code we sent to your email address.",
    confirmLeadPhone: "Enter the 6-digit code we sent to your phone.",
    confirmLeadTo: "Enter the 6-digit code we sent to",
    termsTitle: "Review and accept",
    termsLead: (app: string) => `Before you continue to ${app}, please read and answer the following.`,
    acceptButton: "Accept and continue",
    profileTitle: "Complete your profile",
    profileLead: (app: string) => `${app} needs a few more details before you continue.`,
  },
  es: {
    confirmTitleEmail: "Confirma tu correo electrónico",
    confirmTitlePhone: "Confirma tu número de teléfono",
    confirmLeadEmail: "Escribe el código de 6 cifras que hemos enviado a tu correo electrónico.",
    confirmLeadPhone: "Escribe el código de 6 cifras que hemos enviado a tu teléfono.",
    confirmLeadTo: "Escribe el código de 6 cifras que hemos enviado a",
    termsTitle: "Revisa y acepta",
    termsLead: (app: string) => `Antes de continuar en ${app}, lee y responde lo siguiente.`,
    acceptButton: "Aceptar y continuar",
    profileTitle: "Completa tu perfil",
    profileLead: (app: string) => `${app} necesita algunos datos más antes de continuar.`,
  },
} satisfies Record<Locale, unknown>;
