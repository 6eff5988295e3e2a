import type { Locale } from "@gatehouse/errors";

/** The texts of social sign-in on the hosted pages (en, es). */
export const SOCIAL_TEXTS = {
  en: {
    continueWith: (provider: string) => `Continue with ${provider}`,
    or: "or",
    failed:
      "Signing in with that account did not work, and nothing was changed. Try again, or use another way to sign in.",
    denied: "The sign-in was cancelled at the provider. Nothing was changed.",
    unavailable: "The provider did not answer in time. Try again in a moment, or use another way to sign in.",
    expired: "That sign-in took too long or was started in another browser. Start again.",
    alreadyLinked: "This account is already linked to another account at that provider.",
    linkNotice: (provider: string, email: string) =>
      `An account with ${email} already exists. Sign in to it (password or emailed code) to link your ${provider} account.`,
    signupLead: "Almost done: a few details to create your account.",
  },
  es: {
    continueWith: (provider: string) => `Continuar con ${provider}`,
    or: "o",
    failed:
      "No se ha podido iniciar sesión con esa cuenta y no se ha cambiado nada. Vuelve a intentarlo o usa otra forma de iniciar sesión.",
    denied: "Se canceló el inicio de sesión en el proveedor. No se ha cambiado nada.",
    unavailable:
      "El proveedor no ha respondido a tiempo. Vuelve a intentarlo en un momento o usa otra forma de iniciar sesión.",
    expired: "Ese inicio de sesión ha tardado demasiado o empezó en otro navegador. Vuelve a empezar.",
    alreadyLinked: "Esta cuenta ya está vinculada a otra cuenta de ese proveedor.",
    linkNotice: (provider: string, email: string) =>
      `Ya existe una cuenta con ${email}. Inicia sesión en ella (contraseña o código por correo) para vincular tu cuenta de ${provider}.`,
    signupLead: "Casi listo: unos datos para crear tu cuenta.",
  },
} satisfies Record<Locale, unknown>;
