// The URL of every hosted page: routes serve them, pages and JSON answers link to them.
// Data only (no page code), so a JSON answer may name a page without importing one.

/** The hosted login and registration (`prompt=create`); every page of a sign-in posts back here. */
export const AUTHORIZE_PATH = "/oauth2/authorize";
/** RP-initiated logout (OpenID Connect): its page says the user signed out. */
export const LOGOUT_PATH = "/oauth2/logout";
/** The terms page of a 451 answer (`content.url`, with `?token=`). */
export const TERMS_PATH = "/activityid/v1/user/terms";
/** RFC 8628 verification_uri: the person enters a device's user code, signs in, approves or denies. */
export const DEVICE_PATH = "/device";
/** Where the hosted login the device page started comes back with its code (under DEVICE_PATH: its cookie's path). */
export const DEVICE_CALLBACK_PATH = "/device/callback";
/** The activation page of an assisted registration's message (`?token=`). */
export const ACTIVATE_PATH = "/activityid/v1/user/activate";
/** The confirmation message's link (`?token=`): confirms, then redirects to the application or to CONFIRMED_PATH. */
export const CONFIRM_PATH = "/activityid/v1/user/confirm";
export const CONFIRMED_PATH = "/activityid/v1/user/confirmed";
/** The 412 answer's `content.url` (`?token=`): sends the confirmation code again. */
export const RESEND_PATH = "/activityid/v1/user/confirm/resend";

/** The hosted pages' static scripts (hosted/static, @simplewebauthn/browser's bundle): same origin, under the CSP. */
export const STATIC_PATH = "/oauth2/static";
/** The scripts of a page with passkeys, in load order. */
export const PASSKEY_SCRIPTS = [`${STATIC_PATH}/simplewebauthn-browser.js`, `${STATIC_PATH}/passkeys.js`];

/** A page's absolute link carrying its token (`content.url` of the JSON answers, links on pages). */
export const linkWithToken = (baseUrl: string, path: string, token: string) =>
  `${baseUrl}${path}?token=${encodeURIComponent(token)}`;

/** Where upstream identity providers return (contract section 11): register exactly `{auth_url}` + this with them. */
export const IDP_CALLBACK_PATH = "/oauth2/idp/callback";
/** The ALTCHA widget's files (section 17): scripts, stylesheet and worker, same-origin under the pages' CSP. */
export const ALTCHA_STATIC_PATH = "/hosted/static/altcha";
