import type { Locale } from "@gatehouse/errors";
import type { PageProblem } from "../../oauth/authorization-request.ts";

/** The messages of the hosted login: errors, a request that cannot be answered, interruptions told on a page (en, es). */
export const JOURNEY_TEXTS = {
  en: {
    errorTitle: "Sign-in is not possible",
    unavailable: "The service is not available right now. Please try again in a moment.",
    unexpected: "Something went wrong. Please start again from the application.",
    formExpired:
      "This sign-in form has expired or was opened in another browser. Please start again from the application.",
    backToSignIn: "Back to sign in",
    wrongCredentials: "The email or password is not correct.",
    accountLocked: "This account is locked. Please contact the application's support.",
    missingCredentials: "Enter your email and your password.",
    tooManyAttempts: "Too many attempts. Please wait a few minutes and try again.",
    // A hosted form posted from another site (plugins/security-headers.ts).
    crossSite: "This form must be sent from the sign-in page that showed it. Please start again from the application.",
    notOperatorTitle: "This account cannot use the console",
    notOperatorText:
      "Only Gatehouse operators can sign in to the administration console. Ask an operator to create an operator account for you (npm run cli -- create-operator).",
    // Interruptions without a page of their own (no flow token).
    unconfirmedTitle: "Confirm your email",
    unconfirmedText:
      "Your email address is not confirmed yet. We have sent you a message with a confirmation link and code; confirm it, then sign in again.",
    resendLink: "Send the confirmation message again",
    resendLimited: "Too many confirmation messages were sent. Please try again later.",
    activationTitle: "Activate your account",
    activationText:
      "Your account was created for you and is not active yet. We sent you a link to activate it and choose your password; open it, then sign in again.",
    resendActivation: "Send the activation link again",
    termsTitle: "New terms to accept",
    termsText: "Before signing in you need to read and accept the updated terms. Accept them, then sign in again.",
    termsLink: "Read and accept the terms",
    // An authorization request that cannot even be answered at its redirect URI.
    problems: {
      client_missing: "The application did not say who it is (client_id is missing).",
      client_unknown: "The application is not known (unknown client_id).",
      redirect_missing: "The application did not say where to return (redirect_uri is missing).",
      redirect_invalid: "The return address (redirect_uri) is not registered for this application.",
      request_malformed: "The sign-in request is malformed (a parameter is repeated).",
    } satisfies Record<PageProblem, string>,
  },
  es: {
    errorTitle: "No es posible iniciar sesión",
    unavailable: "El servicio no está disponible ahora. Inténtalo de nuevo en un momento.",
    unexpected: "Algo ha fallado. Vuelve a empezar desde la aplicación.",
    formExpired: "Este formulario ha caducado o se abrió en otro navegador. Vuelve a empezar desde la aplicación.",
    backToSignIn: "Volver a iniciar sesión",
    wrongCredentials: "El correo electrónico o la contraseña no son correctos.",
    accountLocked: "Esta cuenta está bloqueada. Contacte con el soporte de la aplicación.",
    missingCredentials: "Escribe tu correo electrónico y tu contraseña.",
    tooManyAttempts: "Demasiados intentos. Espera unos minutos y vuelve a intentarlo.",
    crossSite:
      "Este formulario debe enviarse desde la página de inicio de sesión que lo mostró. Vuelve a empezar desde la aplicación.",
    notOperatorTitle: "Esta cuenta no puede usar la consola",
    notOperatorText:
      "Solo los operadores de Gatehouse pueden entrar en la consola de administración. Pide a un operador que te cree una cuenta de operador (npm run cli -- create-operator).",
    // Interruptions without a page of their own (no flow token).
    unconfirmedTitle: "Confirma tu correo electrónico",
    unconfirmedText:
      "Tu dirección de correo aún no está confirmada. Te hemos enviado un mensaje con un enlace y un código de confirmación; confírmala y vuelve a iniciar sesión.",
    resendLink: "Enviar de nuevo el mensaje de confirmación",
    resendLimited: "Se han enviado demasiados mensajes de confirmación. Inténtalo más tarde.",
    activationTitle: "Activa tu cuenta",
    activationText:
      "Tu cuenta se creó en tu nombre y aún no está activa. Te hemos enviado un enlace para activarla y elegir tu contraseña; ábrelo y vuelve a iniciar sesión.",
    resendActivation: "Enviar de nuevo el enlace de activación",
    termsTitle: "Nuevas condiciones que aceptar",
    termsText:
      "Antes de iniciar sesión debes leer y aceptar las condiciones actualizadas. Acéptalas y vuelve a iniciar sesión.",
    termsLink: "Leer y aceptar las condiciones",
    // An authorization request that cannot even be answered at its redirect URI.
    problems: {
      client_missing: "La aplicación no ha indicado quién es (falta client_id).",
      client_unknown: "La aplicación no es conocida (client_id desconocido).",
      redirect_missing: "La aplicación no ha indicado adónde volver (falta redirect_uri).",
      redirect_invalid: "La dirección de vuelta (redirect_uri) no está registrada para esta aplicación.",
      request_malformed: "La petición de inicio de sesión está mal formada (hay un parámetro repetido).",
    } satisfies Record<PageProblem, string>,
  },
} satisfies Record<Locale, unknown>;
