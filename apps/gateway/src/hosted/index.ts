// The hosted pages' one entry: what routes and plugins call (URLs: ./paths.ts).
// Every page family is a folder here (its pages, its en/es texts, what its
// forms do); ./kit is what they are made of. docs/architecture.md, "Where to
// add a hosted page".

// /oauth2/authorize: the sign-in journey (login, code sign-in, registration, interruptions, MFA).
export { hostedLogin, type HostedLogin } from "./authorize/hosted-login.ts";
export type { HostedLoginDeps } from "./journey/deps.ts";
export { crossSiteFormPage } from "./journey/messages.ts";
// The pages the JSON answers and messages link to.
export { termsPages } from "./terms/handlers.ts";
export { activationPages } from "./activation/handlers.ts";
export { confirmationPage, resendPage } from "./confirmation/pages.ts";
export { resendPages } from "./confirmation/resend.ts";
// /device: the person's side of the device authorization grant (RFC 8628).
export { devicePages, type DevicePages } from "./device/handlers.ts";
// /oauth2/logout's and /console's pages.
export { logoutInvalidPage, signedOutPage } from "./sign-out/pages.ts";
export { consoleNotBuiltPage } from "./console/page.ts";
export { altchaAsset } from "./kit/altcha-files.ts";
// The pages' static scripts (passkeys), under STATIC_PATH.
export { staticScript } from "./kit/static-files.ts";
export { STATIC_PATH } from "./paths.ts";
