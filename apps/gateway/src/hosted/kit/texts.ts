import type { Locale } from "@gatehouse/errors";

/** The texts every hosted page shares: the layout, form inputs, one-time codes and input errors (en, es). */
export const KIT_TEXTS = {
  en: {
    optional: "(optional)",
    or: "or",
    securedBy: "Secured by Gatehouse",
    problemTitle: "There is a problem",
    continueButton: "Continue",
    passwordHint: "At least 8 characters.",
    phoneHint: "With the country code, like +34 600 000 000.",
    // One-time codes (code sign-in, confirmation).
    codeLabel: "6-digit code",
    sendNewCode: "Send a new code",
    newCodeSent: "We sent a new code. Enter the latest one you received.",
    tooManyCodes: "Too many codes were sent. Wait a while before asking for another one.",
    smsLimit: "No more text messages can be sent right now. Try again later, or use your email if you can.",
    // The ALTCHA check (section 17).
    captcha: {
      noscript:
        "This sign-up needs JavaScript for a quick automatic check that you are not a robot. Turn JavaScript on and reload this page.",
      noscriptCode:
        "Getting a code needs JavaScript for a quick automatic check that you are not a robot. Turn JavaScript on and reload this page.",
      failed:
        "The check that you are not a robot did not pass, or was already used. Wait for it to finish and try again.",
    },
    // An input's error (next to it) or the form's.
    errors: {
      required: "This field is required.",
      requiredCheck: "You must accept this to continue.",
      email: "Enter an email address like name@example.com.",
      tel: "Enter a mobile number with its country code, like +34 600 000 000.",
      date: "Enter a real date.",
      format: "This value has the wrong format.",
      tooShort: "Use at least 8 characters.",
      tooLong: "This is too long.",
      weakPassword:
        "This password is too easy to guess: avoid common or leaked passwords, your email and your phone number.",
      takenEmail: "An account with this email already exists. Sign in instead.",
      takenPhone: "An account with this phone number already exists. Sign in instead.",
      taken: "This value is already registered.",
      invalid: "This value is not valid.",
      wrongCode: "That code is not right, or it has expired. Check it or ask for a new one.",
      wrongSignInCode: "That code or those details are not right, or the code has expired.",
      enterId: "Enter your email address.",
      enterPhone: "Enter your mobile number.",
      enterCode: "Enter the 6-digit code.",
      noPassword: "This sign-up takes no password: you sign in with a code.",
    },
  },
  es: {
    optional: "(opcional)",
    or: "o",
    securedBy: "Protegido por Gatehouse",
    problemTitle: "Hay un problema",
    continueButton: "Continuar",
    passwordHint: "Al menos 8 caracteres.",
    phoneHint: "Con el prefijo del país, como +34 600 000 000.",
    // One-time codes (code sign-in, confirmation).
    codeLabel: "Código de 6 cifras",
    sendNewCode: "Enviar un código nuevo",
    newCodeSent: "Te hemos enviado un código nuevo. Escribe el último que hayas recibido.",
    tooManyCodes: "Se han enviado demasiados códigos. Espera un rato antes de pedir otro.",
    smsLimit: "Ahora no se pueden enviar más mensajes de texto. Inténtalo más tarde o usa tu correo si puedes.",
    // La comprobación ALTCHA (sección 17).
    captcha: {
      noscript:
        "Este registro necesita JavaScript para una comprobación automática y rápida de que no eres un robot. Activa JavaScript y vuelve a cargar la página.",
      noscriptCode:
        "Para recibir un código hace falta JavaScript: una comprobación automática y rápida de que no eres un robot. Activa JavaScript y vuelve a cargar la página.",
      failed:
        "La comprobación de que no eres un robot no ha pasado o ya se usó. Espera a que termine e inténtalo de nuevo.",
    },
    // An input's error (next to it) or the form's.
    errors: {
      required: "Este campo es obligatorio.",
      requiredCheck: "Debes aceptarlo para continuar.",
      email: "Escribe un correo electrónico como nombre@ejemplo.com.",
      tel: "Escribe un móvil con su prefijo de país, como +34 600 000 000.",
      date: "Escribe una fecha real.",
      format: "Este valor tiene un formato incorrecto.",
      tooShort: "Usa al menos 8 caracteres.",
      tooLong: "Es demasiado largo.",
      weakPassword:
        "Esta contraseña es demasiado fácil de adivinar: evita contraseñas comunes o filtradas, tu correo y tu teléfono.",
      takenEmail: "Ya existe una cuenta con este correo. Inicia sesión.",
      takenPhone: "Ya existe una cuenta con este teléfono. Inicia sesión.",
      taken: "Este valor ya está registrado.",
      invalid: "Este valor no es válido.",
      wrongCode: "Ese código no es correcto o ha caducado. Revísalo o pide uno nuevo.",
      wrongSignInCode: "El código o esos datos no son correctos, o el código ha caducado.",
      enterId: "Escribe tu correo electrónico.",
      enterPhone: "Escribe tu número de móvil.",
      enterCode: "Escribe el código de 6 cifras.",
      noPassword: "Este acceso no usa contraseña: se entra con un código.",
    },
  },
} satisfies Record<Locale, unknown>;
