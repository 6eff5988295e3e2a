import type { Locale } from "@gatehouse/errors";

/** The texts of the hosted TOTP enrolment and its recovery codes (operators' first sign-in, applications with MFA required). */
export const ENROL_TEXTS: Record<
  Locale,
  {
    title: string;
    stepScan: string;
    lead: string;
    qrLabel: string;
    secretLabel: string;
    secretHint: string;
    codeLabel: string;
    codeHint: string;
    submit: string;
    wrong: string;
    recoveryTitle: string;
    recoveryLead: string;
    recoveryListLabel: string;
    recoveryOnce: string;
    recoveryContinue: string;
    notOperatorTitle: string;
    notOperatorText: string;
  }
> = {
  en: {
    title: "Set up two-step verification",
    stepScan: "Required for your account",
    lead: "Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Aegis…), then enter the 6-digit code it shows.",
    qrLabel: "QR code for your authenticator app",
    secretLabel: "Can't scan it? Enter this key instead",
    secretHint: "Time-based (TOTP), 6 digits, every 30 seconds.",
    codeLabel: "6-digit code from the app",
    codeHint: "The code changes every 30 seconds.",
    submit: "Turn on two-step verification",
    wrong: "That code is not right. Check the time on your phone and enter the newest code.",
    recoveryTitle: "Save your recovery codes",
    recoveryLead:
      "If you lose your phone, each of these codes signs you in once instead of the app. Keep them somewhere safe, like a password manager.",
    recoveryListLabel: "Recovery codes",
    recoveryOnce: "They are shown only now.",
    recoveryContinue: "I have saved them, continue",
    notOperatorTitle: "This account cannot use the console",
    notOperatorText:
      "Only Gatehouse operators can sign in to the administration console. Ask an operator to create an operator account for you (npm run cli -- create-operator).",
  },
  es: {
    title: "Configura la verificación en dos pasos",
    stepScan: "Obligatoria para tu cuenta",
    lead: "Escanea este código QR con una aplicación de autenticación (Google Authenticator, Microsoft Authenticator, 1Password, Aegis…) y escribe el código de 6 cifras que muestre.",
    qrLabel: "Código QR para tu aplicación de autenticación",
    secretLabel: "¿No puedes escanearlo? Escribe esta clave",
    secretHint: "Basada en el tiempo (TOTP), 6 cifras, cada 30 segundos.",
    codeLabel: "Código de 6 cifras de la aplicación",
    codeHint: "El código cambia cada 30 segundos.",
    submit: "Activar la verificación en dos pasos",
    wrong: "Ese código no es correcto. Comprueba la hora del teléfono y escribe el código más reciente.",
    recoveryTitle: "Guarda tus códigos de recuperación",
    recoveryLead:
      "Si pierdes el teléfono, cada uno de estos códigos te permite entrar una vez en lugar de la aplicación. Guárdalos en un lugar seguro, como un gestor de contraseñas.",
    recoveryListLabel: "Códigos de recuperación",
    recoveryOnce: "Solo se muestran ahora.",
    recoveryContinue: "Ya los he guardado, continuar",
    notOperatorTitle: "Esta cuenta no puede usar la consola",
    notOperatorText:
      "Solo los operadores de Gatehouse pueden entrar en la consola de administración. Pide a un operador que te cree una cuenta de operador (npm run cli -- create-operator).",
  },
};
