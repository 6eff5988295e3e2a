import type { Locale } from "@gatehouse/errors";
import type { PageProblem } from "../../oauth/authorization-request.ts";

/** Every text of the hosted pages, in the languages of the contract (en, es). */
export const TEXTS = {
  en: {
    signInTitle: (app: string) => `Sign in to ${app}`,
    email: "Email",
    password: "Password",
    submit: "Sign in",
    wrongCredentials: "The email or password is not correct.",
    accountLocked: "This account is locked. Please contact the application's support.",
    missingCredentials: "Enter your email and your password.",
    tooManyAttempts: "Too many attempts. Please wait a few minutes and try again.",
    unconfirmedTitle: "Confirm your email",
    unconfirmedText:
      "Your email address is not confirmed yet. We have sent you a message with a confirmation link and code; confirm it, then sign in again.",
    resendLink: "Send the confirmation message again",
    resendLimited: "Too many confirmation messages were sent. Please try again later.",
    backToSignIn: "Back to sign in",
    errorTitle: "Sign-in is not possible",
    unavailable: "The service is not available right now. Please try again in a moment.",
    unexpected: "Something went wrong. Please start again from the application.",
    formExpired:
      "This sign-in form has expired or was opened in another browser. Please start again from the application.",
    mfaTitle: "Two-step verification",
    mfaText: "Enter the 6-digit code from your authenticator app, or one of your recovery codes.",
    mfaCode: "Verification code",
    mfaSubmit: "Verify",
    mfaWrong: "That code is not correct, or was already used.",
    mfaEnrollText:
      "This application requires two-step verification. Set it up in the application first, then sign in again.",
    termsTitle: "New terms to accept",
    termsText: "Before signing in you need to read and accept the updated terms. Accept them, then sign in again.",
    termsLink: "Read and accept the terms",
    loggedOutTitle: "Signed out",
    loggedOutText: "You have signed out.",
    logoutInvalid: "The sign-out request is not valid.",
    problems: {
      client_missing: "The application did not say who it is (client_id is missing).",
      client_unknown: "The application is not known (unknown client_id).",
      redirect_missing: "The application did not say where to return (redirect_uri is missing).",
      redirect_invalid: "The return address (redirect_uri) is not registered for this application.",
      request_malformed: "The sign-in request is malformed (a parameter is repeated).",
    } satisfies Record<PageProblem, string>,
  },
  es: {
    signInTitle: (app: string) => `Inicia sesión en ${app}`,
    email: "Correo electrónico",
    password: "Contraseña",
    submit: "Iniciar sesión",
    wrongCredentials: "El correo electrónico o la contraseña no son correctos.",
    accountLocked: "Esta cuenta está bloqueada. Contacte con el soporte de la aplicación.",
    missingCredentials: "Escribe tu correo electrónico y tu contraseña.",
    tooManyAttempts: "Demasiados intentos. Espera unos minutos y vuelve a intentarlo.",
    unconfirmedTitle: "Confirma tu correo electrónico",
    unconfirmedText:
      "Tu dirección de correo aún no está confirmada. Te hemos enviado un mensaje con un enlace y un código de confirmación; confírmala y vuelve a iniciar sesión.",
    resendLink: "Enviar de nuevo el mensaje de confirmación",
    resendLimited: "Se han enviado demasiados mensajes de confirmación. Inténtalo más tarde.",
    backToSignIn: "Volver a iniciar sesión",
    errorTitle: "No es posible iniciar sesión",
    unavailable: "El servicio no está disponible ahora. Inténtalo de nuevo en un momento.",
    unexpected: "Algo ha fallado. Vuelve a empezar desde la aplicación.",
    formExpired: "Este formulario ha caducado o se abrió en otro navegador. Vuelve a empezar desde la aplicación.",
    mfaTitle: "Verificación en dos pasos",
    mfaText: "Escribe el código de 6 cifras de tu aplicación de autenticación, o uno de tus códigos de recuperación.",
    mfaCode: "Código de verificación",
    mfaSubmit: "Verificar",
    mfaWrong: "Ese código no es correcto o ya se usó.",
    mfaEnrollText:
      "Esta aplicación exige la verificación en dos pasos. Configúrala primero en la aplicación y vuelve a iniciar sesión.",
    termsTitle: "Nuevas condiciones que aceptar",
    termsText:
      "Antes de iniciar sesión debes leer y aceptar las condiciones actualizadas. Acéptalas y vuelve a iniciar sesión.",
    termsLink: "Leer y aceptar las condiciones",
    loggedOutTitle: "Sesión cerrada",
    loggedOutText: "Has cerrado la sesión.",
    logoutInvalid: "La petición de cierre de sesión no es válida.",
    problems: {
      client_missing: "La aplicación no ha indicado quién es (falta client_id).",
      client_unknown: "La aplicación no es conocida (client_id desconocido).",
      redirect_missing: "La aplicación no ha indicado adónde volver (falta redirect_uri).",
      redirect_invalid: "La dirección de vuelta (redirect_uri) no está registrada para esta aplicación.",
      request_malformed: "La petición de inicio de sesión está mal formada (hay un parámetro repetido).",
    } satisfies Record<PageProblem, string>,
  },
} satisfies Record<Locale, unknown>;

export type Texts = (typeof TEXTS)["en"];
