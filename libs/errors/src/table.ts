import { Code } from "@connectrpc/connect";

// The one error table: stable reason -> Connect code -> HTTP status -> localized message.
// `errors.code` in the public envelope is the reason in lower case.
export type Locale = "en" | "es";
export interface ErrorDef {
  connect: Code;
  http: number;
  message: Record<Locale, string>;
}

const def = (connect: Code, http: number, en: string, es: string): ErrorDef => ({ connect, http, message: { en, es } });

export const errorTable = {
  VALIDATION_FAILED: def(
    Code.InvalidArgument,
    400,
    "The request has invalid fields.",
    "La petición tiene campos no válidos.",
  ),
  MALFORMED_REQUEST: def(
    Code.InvalidArgument,
    400,
    "The request could not be understood.",
    "No se ha podido entender la petición.",
  ),
  UNSUPPORTED_MEDIA_TYPE: def(
    Code.InvalidArgument,
    415,
    "The content type is not supported.",
    "El tipo de contenido no está admitido.",
  ),
  PAYLOAD_TOO_LARGE: def(
    Code.ResourceExhausted,
    413,
    "The request body is too large.",
    "El cuerpo de la petición es demasiado grande.",
  ),
  // Raised by the HTTP server before routing (gateway edge): a stalled request, oversized headers, an Expect it cannot meet.
  REQUEST_TIMEOUT: def(
    Code.DeadlineExceeded,
    408,
    "The request did not arrive in time.",
    "La petición no ha llegado a tiempo.",
  ),
  EXPECTATION_FAILED: def(
    Code.InvalidArgument,
    417,
    "The Expect header cannot be met.",
    "No se puede cumplir la cabecera Expect.",
  ),
  HEADERS_TOO_LARGE: def(
    Code.ResourceExhausted,
    431,
    "The request headers are too large.",
    "Las cabeceras de la petición son demasiado grandes.",
  ),
  ROUTE_NOT_FOUND: def(Code.NotFound, 404, "There is nothing at this address.", "No hay nada en esta dirección."),
  METHOD_NOT_ALLOWED: def(
    Code.Unimplemented,
    405,
    "This method is not allowed here.",
    "Este método no está permitido aquí.",
  ),
  NOT_ACCEPTABLE: def(
    Code.InvalidArgument,
    406,
    "Only application/json responses are available.",
    "Solo hay respuestas application/json.",
  ),
  UNAUTHENTICATED: def(
    Code.Unauthenticated,
    401,
    "Authentication is missing or failed.",
    "Falta la autenticación o ha fallado.",
  ),
  INSUFFICIENT_SCOPE: def(
    Code.PermissionDenied,
    403,
    "The token does not allow this operation.",
    "El token no permite esta operación.",
  ),
  PERMISSION_DENIED: def(
    Code.PermissionDenied,
    403,
    "This operation is not allowed.",
    "Esta operación no está permitida.",
  ),
  APPLICATION_NOT_FOUND: def(Code.NotFound, 404, "The application does not exist.", "La aplicación no existe."),
  ENTRYPOINT_NOT_FOUND: def(Code.NotFound, 404, "The entry point does not exist.", "El punto de entrada no existe."),
  WEBHOOK_NOT_FOUND: def(Code.NotFound, 404, "The webhook does not exist.", "El webhook no existe."),
  WEBHOOK_DELIVERY_NOT_FOUND: def(
    Code.NotFound,
    404,
    "The webhook delivery does not exist.",
    "La entrega del webhook no existe.",
  ),
  APPLICATION_ID_TAKEN: def(
    Code.AlreadyExists,
    409,
    "That application id is already in use.",
    "Ese identificador de aplicación ya está en uso.",
  ),
  IDENTIFIER_TAKEN: def(
    Code.AlreadyExists,
    409,
    "That identifier is already registered.",
    "Ese identificador ya está registrado.",
  ),
  CONFIRMATION_NOT_QUEUED: def(
    Code.Unavailable,
    502,
    "The confirmation code could not be sent.",
    "No se ha podido enviar el código de confirmación.",
  ),
  INVALID_CREDENTIALS: def(
    Code.PermissionDenied,
    403,
    "User id or password invalid.",
    "Usuario o contraseña no válidos.",
  ),
  // The spec's words for the 412 (also for a main phone, and an assisted account awaiting its activation link).
  USER_UNCONFIRMED: def(
    Code.FailedPrecondition,
    412,
    "The user has not confirmed the email.",
    "El usuario no ha confirmado el correo.",
  ),
  // MFA (issue 4): 428 asks for a second factor (or its enrolment) before the login or change goes on.
  MFA_REQUIRED: def(
    Code.FailedPrecondition,
    428,
    "A second factor (MFA) is required.",
    "Se requiere un segundo factor (MFA).",
  ),
  MFA_CODE_INVALID: def(
    Code.PermissionDenied,
    403,
    "The MFA code is invalid or was already used.",
    "El código MFA no es válido o ya se usó.",
  ),
  MFA_TOKEN_INVALID: def(
    Code.PermissionDenied,
    403,
    "The MFA token is invalid, used or expired; log in again.",
    "El token MFA no es válido, ya se usó o ha caducado; inicie sesión de nuevo.",
  ),
  MFA_STATE_CONFLICT: def(
    Code.FailedPrecondition,
    409,
    "The second factor is not in a state that allows this.",
    "El segundo factor no está en un estado que permita esto.",
  ),
  // Legal assertions (issue 4): 451 until the latest version of each mandatory one is accepted.
  TERMS_NOT_ACCEPTED: def(
    Code.FailedPrecondition,
    451,
    "The user must accept the terms and conditions.",
    "El usuario debe aceptar los términos y condiciones.",
  ),
  ASSERTION_NOT_FOUND: def(
    Code.NotFound,
    404,
    "The legal assertion does not exist.",
    "La declaración legal no existe.",
  ),
  ASSERTION_VERSION_TAKEN: def(
    Code.AlreadyExists,
    409,
    "That version of the legal assertion already exists.",
    "Esa versión de la declaración legal ya existe.",
  ),
  CONSTRAINT_VIOLATION: def(
    Code.OutOfRange,
    416,
    "Some fields do not meet the required rules.",
    "Algunos campos no cumplen las reglas exigidas.",
  ),
  USER_NOT_FOUND: def(Code.NotFound, 404, "The user does not exist.", "El usuario no existe."),
  // Bulk import (issue 28, contract section 15).
  IMPORT_NOT_FOUND: def(Code.NotFound, 404, "The import does not exist.", "La importación no existe."),
  IMPORT_FINISHED: def(
    Code.FailedPrecondition,
    409,
    "The import has already finished.",
    "La importación ya ha terminado.",
  ),
  // Admin API (issue 12).
  // Operator persons (issue 12): only they sign in to the console and get the admin scopes.
  NOT_AN_OPERATOR: def(
    Code.PermissionDenied,
    403,
    "This account is not an operator of Gatehouse.",
    "Esta cuenta no es de un operador de Gatehouse.",
  ),
  ACCOUNT_LOCKED: def(
    Code.PermissionDenied,
    403,
    "This account is locked; contact support.",
    "Esta cuenta está bloqueada; contacte con soporte.",
  ),
  CATALOG_ENTRY_NOT_FOUND: def(
    Code.NotFound,
    404,
    "The catalog entry does not exist.",
    "La entrada del catálogo no existe.",
  ),
  CATALOG_KEY_TAKEN: def(
    Code.AlreadyExists,
    409,
    "That key is already in the catalog.",
    "Esa clave ya está en el catálogo.",
  ),
  IDENTITY_PROVIDER_NOT_FOUND: def(
    Code.NotFound,
    404,
    "The identity provider does not exist.",
    "El proveedor de identidad no existe.",
  ),
  IDENTITY_PROVIDER_KEY_TAKEN: def(
    Code.AlreadyExists,
    409,
    "An identity provider already has that key.",
    "Ya hay un proveedor de identidad con esa clave.",
  ),
  // Social sign-in (contract section 11): the hosted login shows these on its pages.
  UPSTREAM_LOGIN_FAILED: def(
    Code.InvalidArgument,
    400,
    "Signing in with that provider did not work; nothing was changed. Try again.",
    "No se ha podido iniciar sesión con ese proveedor; no se ha cambiado nada. Vuelva a intentarlo.",
  ),
  UPSTREAM_UNAVAILABLE: def(
    Code.Unavailable,
    503,
    "The identity provider did not answer in time; try again later.",
    "El proveedor de identidad no ha respondido a tiempo; inténtelo más tarde.",
  ),
  UPSTREAM_LINK_REQUIRED: def(
    Code.FailedPrecondition,
    409,
    "An account already uses this email: sign in to it once to link the provider.",
    "Ya hay una cuenta con este correo: inicie sesión en ella una vez para vincular el proveedor.",
  ),
  UPSTREAM_SIGNUP_REQUIRED: def(
    Code.FailedPrecondition,
    400,
    "A few details are needed to create the account.",
    "Faltan algunos datos para crear la cuenta.",
  ),
  IDENTITY_NOT_LINKED: def(
    Code.NotFound,
    404,
    "No account at that provider is linked to this user.",
    "Este usuario no tiene vinculada ninguna cuenta de ese proveedor.",
  ),
  IN_USE: def(
    Code.FailedPrecondition,
    409,
    "It is still in use and cannot be deleted.",
    "Todavía está en uso y no se puede eliminar.",
  ),
  SESSION_NOT_FOUND: def(
    Code.NotFound,
    404,
    "The session does not exist or has ended.",
    "La sesión no existe o ha terminado.",
  ),
  INVALID_CODE: def(
    Code.InvalidArgument,
    400,
    "The confirmation code or link is invalid, used or expired.",
    "El código o enlace de confirmación no es válido, ya se usó o ha caducado.",
  ),
  // Passkeys (contract section 12).
  PASSKEY_NOT_FOUND: def(Code.NotFound, 404, "The passkey does not exist.", "La llave de acceso no existe."),
  PASSKEY_INVALID: def(
    Code.InvalidArgument,
    400,
    "The passkey could not be verified; start again.",
    "No se ha podido verificar la llave de acceso; vuelva a empezar.",
  ),
  PASSKEY_EXISTS: def(
    Code.AlreadyExists,
    409,
    "This passkey is already registered.",
    "Esta llave de acceso ya está registrada.",
  ),
  PASSKEY_LIMIT: def(
    Code.FailedPrecondition,
    409,
    "You have too many passkeys; remove one first.",
    "Tiene demasiadas llaves de acceso; elimine una primero.",
  ),
  // Hosted pages (issue 11): a flow token that is forged, expired, finished or for another authorization request.
  LOGIN_FLOW_INVALID: def(
    Code.InvalidArgument,
    400,
    "This sign-in has expired or is finished; start again.",
    "Este inicio de sesión ha caducado o ya terminó; vuelva a empezar.",
  ),
  RATE_LIMITED: def(
    Code.ResourceExhausted,
    429,
    "Too many requests; try again later.",
    "Demasiadas peticiones; inténtelo más tarde.",
  ),
  // Contract section 17: the hour's budget of text messages (in total, per calling code or per application) is spent.
  SMS_LIMIT: def(
    Code.ResourceExhausted,
    429,
    "No more text messages can be sent right now; try again later or use your email.",
    "Ahora no se pueden enviar más mensajes de texto; inténtelo más tarde o use su correo.",
  ),
  // Redis (sessions, limits, revocation marks) cannot be reached: fail closed, the client retries shortly.
  STORE_UNAVAILABLE: def(
    Code.Unavailable,
    503,
    "The service is temporarily unavailable; try again in a moment.",
    "El servicio no está disponible temporalmente; inténtelo de nuevo en un momento.",
  ),
  SERVICE_UNAVAILABLE: def(
    Code.Unavailable,
    503,
    "The service is temporarily unavailable.",
    "El servicio no está disponible temporalmente.",
  ),
  UPSTREAM_TIMEOUT: def(
    Code.DeadlineExceeded,
    504,
    "An internal service did not answer in time.",
    "Un servicio interno no ha respondido a tiempo.",
  ),
  INTERNAL: def(Code.Internal, 500, "Unexpected server error.", "Error inesperado del servidor."),
  // OAuth 2.0 (RFC 6749 section 5.2, RFC 7009): the reason in lower case is the `error` value.
  INVALID_REQUEST: def(Code.InvalidArgument, 400, "The OAuth request is invalid.", "La petición OAuth no es válida."),
  INVALID_CLIENT: def(
    Code.Unauthenticated,
    401,
    "Client authentication failed.",
    "Ha fallado la autenticación del cliente.",
  ),
  INVALID_GRANT: def(
    Code.InvalidArgument,
    400,
    "The grant is invalid, expired or revoked.",
    "La concesión no es válida, ha caducado o se ha revocado.",
  ),
  UNAUTHORIZED_CLIENT: def(
    Code.PermissionDenied,
    400,
    "The client may not use this grant.",
    "El cliente no puede usar esta concesión.",
  ),
  UNSUPPORTED_GRANT_TYPE: def(
    Code.InvalidArgument,
    400,
    "The grant type is not supported.",
    "El tipo de concesión no está admitido.",
  ),
  INVALID_SCOPE: def(
    Code.InvalidArgument,
    400,
    "The requested scope is invalid.",
    "El ámbito solicitado no es válido.",
  ),
  UNSUPPORTED_TOKEN_TYPE: def(
    Code.InvalidArgument,
    400,
    "That token type cannot be revoked.",
    "Ese tipo de token no se puede revocar.",
  ),
  // RFC 8628 section 3.5: the device authorization grant's answers while polling.
  AUTHORIZATION_PENDING: def(
    Code.FailedPrecondition,
    400,
    "The person has not approved or denied the device yet.",
    "La persona aún no ha aprobado ni denegado el dispositivo.",
  ),
  SLOW_DOWN: def(
    Code.FailedPrecondition,
    400,
    "Polling too fast; wait the interval (now 5 seconds longer).",
    "Consultas demasiado seguidas; espere el intervalo (ahora 5 segundos más).",
  ),
  ACCESS_DENIED: def(
    Code.PermissionDenied,
    400,
    "The person denied the request.",
    "La persona ha denegado la petición.",
  ),
  EXPIRED_TOKEN: def(
    Code.InvalidArgument,
    400,
    "The device code has expired.",
    "El código del dispositivo ha caducado.",
  ),
  // The hosted /device page: the user code no longer waits for a decision (expired, decided, someone else's).
  DEVICE_CODE_INVALID: def(
    Code.InvalidArgument,
    400,
    "That code is not valid or has expired.",
    "Ese código no es válido o ha caducado.",
  ),
} satisfies Record<string, ErrorDef>;

export type Reason = keyof typeof errorTable;

/** Reasons that say "try again shortly" (503 with Retry-After), not "this request is wrong". */
export function isTransient(reason: Reason): boolean {
  return reason === "SERVICE_UNAVAILABLE" || reason === "STORE_UNAVAILABLE" || reason === "UPSTREAM_TIMEOUT";
}

export function isReason(r: string): r is Reason {
  return Object.hasOwn(errorTable, r);
}

// Fallback when an error carries no reason of ours (framework or transport errors).
export const reasonForCode: Record<Code, Reason> = {
  [Code.Canceled]: "SERVICE_UNAVAILABLE",
  [Code.Unknown]: "INTERNAL",
  [Code.InvalidArgument]: "MALFORMED_REQUEST",
  [Code.DeadlineExceeded]: "UPSTREAM_TIMEOUT",
  [Code.NotFound]: "ROUTE_NOT_FOUND",
  [Code.AlreadyExists]: "APPLICATION_ID_TAKEN",
  [Code.PermissionDenied]: "PERMISSION_DENIED",
  [Code.ResourceExhausted]: "RATE_LIMITED",
  [Code.FailedPrecondition]: "MALFORMED_REQUEST",
  [Code.Aborted]: "SERVICE_UNAVAILABLE",
  [Code.OutOfRange]: "MALFORMED_REQUEST",
  [Code.Unimplemented]: "METHOD_NOT_ALLOWED",
  [Code.Internal]: "INTERNAL",
  [Code.Unavailable]: "SERVICE_UNAVAILABLE",
  [Code.DataLoss]: "INTERNAL",
  [Code.Unauthenticated]: "UNAUTHENTICATED",
};

// Codes of `errors.items[].code`, one per kind of field violation.
export const itemMessages: Record<string, Record<Locale, string>> = {
  required: { en: "This field is required.", es: "Este campo es obligatorio." },
  invalid_type: { en: "This field has the wrong type.", es: "Este campo tiene un tipo incorrecto." },
  invalid_value: { en: "This value is not allowed here.", es: "Este valor no está permitido aquí." },
  unknown_member: { en: "This member is not part of the contract.", es: "Este miembro no forma parte del contrato." },
  invalid_format: { en: "This value has the wrong format.", es: "Este valor tiene un formato incorrecto." },
  invalid_text: {
    en: "This value contains a NUL character or text that is not valid Unicode.",
    es: "Este valor contiene un carácter NUL o texto que no es Unicode válido.",
  },
  unknown_key: {
    en: "This key is not in the operator's catalog.",
    es: "Esta clave no está en el catálogo del operador.",
  },
  // A key that exists (an identifier, or a data field of the catalog) but is not one of the From entry point's fields.
  not_in_entrypoint: {
    en: "This key is not one of the entry point's fields.",
    es: "Esta clave no es uno de los campos del punto de entrada.",
  },
  // A value repeated in the request, or held by another record (another user's email, a taken id).
  duplicate: { en: "This value is already in use.", es: "Este valor ya está en uso." },
  not_allowed: { en: "This is not allowed here.", es: "Esto no está permitido aquí." },
  too_short: { en: "This value is too short.", es: "Este valor es demasiado corto." },
  too_long: { en: "This value is too long.", es: "Este valor es demasiado largo." },
  // Contract section 17: the hour's SMS budget is spent (a patch's confirmation code by text message: 502).
  sms_limit: {
    en: "No more text messages can be sent right now; try again later.",
    es: "Ahora no se pueden enviar más mensajes de texto; inténtelo más tarde.",
  },
  // Contract section 17: one of the 10,000 most common passwords, found in breaches, or holding the user's email or phone.
  password_weak: {
    en: "This password is too easy to guess: it is a common or leaked password, or contains your email or phone number.",
    es: "Esta contraseña es demasiado fácil de adivinar: es común o ha aparecido en filtraciones, o contiene su correo o su teléfono.",
  },
  too_few: { en: "Too few elements.", es: "Faltan elementos." },
  too_many: { en: "Too many elements.", es: "Sobran elementos." },
  confirmed_identifier: {
    en: "A confirmed identifier cannot be removed; replace it instead.",
    es: "Un identificador confirmado no se puede eliminar; sustitúyelo.",
  },
  confirmation_pending: {
    en: "A confirmation code was sent; the new value applies once it is confirmed.",
    es: "Se ha enviado un código de confirmación; el nuevo valor se aplicará al confirmarlo.",
  },
  main_required: {
    en: "Exactly one identifier field must be main.",
    es: "Exactamente un campo identificador debe ser el principal.",
  },
  main_rules: {
    en: "The main identifier must be mandatory and require confirmation.",
    es: "El identificador principal debe ser obligatorio y requerir confirmación.",
  },
};
