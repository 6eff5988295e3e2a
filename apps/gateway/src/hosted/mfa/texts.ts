import type { Locale } from "@gatehouse/errors";

/** The texts of the second factor: the TOTP code page, the enrolment and its recovery codes (en, es). */
export const MFA_TEXTS = {
  en: {
    // The code page of a login with TOTP on.
    mfaTitle: "Two-step verification",
    mfaText: "Enter the 6-digit code from your authenticator app, or one of your recovery codes.",
    mfaCode: "Verification code",
    mfaSubmit: "Verify",
    mfaWrong: "That code is not correct, or was already used.",
    mfaEnrollText:
      "This application requires two-step verification. Set it up in the application first, then sign in again.",
    // The enrolment (templates/enrol.eta).
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
    // The recovery codes (templates/recovery.eta).
    recoveryTitle: "Save your recovery codes",
    recoveryLead:
      "If you lose your phone, each of these codes signs you in once instead of the app. Keep them somewhere safe, like a password manager.",
    recoveryListLabel: "Recovery codes",
    recoveryOnce: "They are shown only now.",
    recoveryContinue: "I have saved them, continue",
  },
  es: {
    // The code page of a login with TOTP on.
    mfaTitle: "Verificación en dos pasos",
    mfaText: "Escribe el código de 6 cifras de tu aplicación de autenticación, o uno de tus códigos de recuperación.",
    mfaCode: "Código de verificación",
    mfaSubmit: "Verificar",
    mfaWrong: "Ese código no es correcto o ya se usó.",
    mfaEnrollText:
      "Esta aplicación exige la verificación en dos pasos. Configúrala primero en la aplicación y vuelve a iniciar sesión.",
    // The enrolment (templates/enrol.eta).
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
    // The recovery codes (templates/recovery.eta).
    recoveryTitle: "Guarda tus códigos de recuperación",
    recoveryLead:
      "Si pierdes el teléfono, cada uno de estos códigos te permite entrar una vez en lugar de la aplicación. Guárdalos en un lugar seguro, como un gestor de contraseñas.",
    recoveryListLabel: "Códigos de recuperación",
    recoveryOnce: "Solo se muestran ahora.",
    recoveryContinue: "Ya los he guardado, continuar",
  },
} satisfies Record<Locale, unknown>;
