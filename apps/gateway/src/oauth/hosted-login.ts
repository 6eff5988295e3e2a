import { submitHostedForm } from "../hosted/authorize/entry.ts";

export {
  pageLocale,
  redirectToClient,
  sendMessage,
  showLogin,
  type HostedLoginDeps,
} from "../hosted/authorize/view.ts";
export { showEntryPage } from "../hosted/authorize/entry.ts";

/**
 * A hosted form posted back (the login, its MFA code, the code sign-in, the
 * registration and the pages of a flow): hosted/dispatch.ts. Every page ends
 * in a redirect to the exact redirect URI with `code` and `state`, through
 * the users service with the authorization request (no session is opened),
 * or in the next page.
 */
export const submitLogin = submitHostedForm;
