import type { Locale } from "@gatehouse/errors";

/** What the device is called on its pages, from the device authorization's source_id. */
export type DeviceKind = "tv" | "console" | "device";

export function deviceKindOf(sourceId: string): DeviceKind {
  const s = sourceId.toLowerCase();
  if (s.includes("tv")) return "tv";
  if (s.includes("console")) return "console";
  return "device";
}

/** The texts of the /device pages (RFC 8628 verification page), en and es. */
export const DEVICE_TEXTS = {
  en: {
    enterTitle: "Connect a device",
    enterLead: "Enter the code shown on your TV, console or other device.",
    codeLabel: "Code",
    codeHint: "8 letters, for example BCDF-GHJK",
    continue: "Continue",
    wrongCode: "That code is not valid or has expired. Check the code on your device.",
    tooMany: "Too many wrong codes from this network. Try again later.",
    approveTitle: (app: string, kind: DeviceKind) => `Sign in on ${app} on your ${NOUN.en[kind]}?`,
    approveLead: (code: string) =>
      `Only approve if you started signing in on your device yourself and it shows the code ${code}.`,
    approve: "Approve",
    deny: "Deny",
    approvedTitle: "Your device is signed in",
    approvedText: (kind: DeviceKind) => `You can go back to your ${NOUN.en[kind]}: it continues in a few seconds.`,
    deniedTitle: "Sign-in denied",
    deniedText: "The device was not signed in. You can close this page.",
    notFinishedTitle: "The sign-in did not finish",
    notFinishedText: "The device was not signed in. Enter the code again to retry.",
    expired: "This page has expired or the code was already used. Enter the code again.",
    enterAgain: "Enter a code",
  },
  es: {
    enterTitle: "Conectar un dispositivo",
    enterLead: "Introduce el código que aparece en tu televisor, consola u otro dispositivo.",
    codeLabel: "Código",
    codeHint: "8 letras, por ejemplo BCDF-GHJK",
    continue: "Continuar",
    wrongCode: "Ese código no es válido o ha caducado. Comprueba el código de tu dispositivo.",
    tooMany: "Demasiados códigos incorrectos desde esta red. Inténtalo más tarde.",
    approveTitle: (app: string, kind: DeviceKind) => `¿Iniciar sesión en ${app} en tu ${NOUN.es[kind]}?`,
    approveLead: (code: string) =>
      `Aprueba solo si has empezado tú a iniciar sesión en tu dispositivo y muestra el código ${code}.`,
    approve: "Aprobar",
    deny: "Denegar",
    approvedTitle: "Tu dispositivo ha iniciado sesión",
    approvedText: (kind: DeviceKind) => `Ya puedes volver a tu ${NOUN.es[kind]}: continuará en unos segundos.`,
    deniedTitle: "Inicio de sesión denegado",
    deniedText: "El dispositivo no ha iniciado sesión. Puedes cerrar esta página.",
    notFinishedTitle: "El inicio de sesión no ha terminado",
    notFinishedText: "El dispositivo no ha iniciado sesión. Vuelve a introducir el código para reintentarlo.",
    expired: "Esta página ha caducado o el código ya se ha usado. Vuelve a introducir el código.",
    enterAgain: "Introducir un código",
  },
} satisfies Record<Locale, unknown>;

const NOUN: Record<Locale, Record<DeviceKind, string>> = {
  en: { tv: "TV", console: "console", device: "device" },
  es: { tv: "televisor", console: "consola", device: "dispositivo" },
};
