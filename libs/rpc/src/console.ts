// The administration console as an OAuth client, declared once: the registry
// creates it, the gateway and the users service recognise it, the launcher
// derives its redirect URI.

/** The console's application (confidential client; its secret is never used). */
export const CONSOLE_APPLICATION_ID = "gatehouse";
/** The console's public client: its application's one entry point (contract section 9). */
export const CONSOLE_CLIENT_ID = "gatehouse-console";
/** Where the console receives the authorization response, under the public base URL. */
export const CONSOLE_CALLBACK_PATH = "/console/callback";

/** The console's redirect URI for a public base URL (`http://localhost:8080` → `http://localhost:8080/console/callback`). */
export const consoleRedirectUri = (publicBaseUrl: string) =>
  `${publicBaseUrl.replace(/\/+$/, "")}${CONSOLE_CALLBACK_PATH}`;
