import type { Principal } from "@gatehouse/rpc";
import type { BearerRule } from "./bearer-guard.ts";

/**
 * A user's ACCESS_TOKEN (a login session or an authorization code grant).
 * An application's own token (subject = client) is not a user's.
 */
export const isUserToken = (p: Principal) => Boolean(p.clientId && p.subject && p.subject !== p.clientId);

/** Bearer rule of the user's routes: anything but a user's token is not a valid token here (401). */
export const userToken: BearerRule = (p) =>
  isUserToken(p) || { error: "invalid_token", description: "the ACCESS_TOKEN of the user is required" };

/**
 * The application a user's token acts for: the `app_id` claim of a public
 * client's token (its client_id is then an entry point id), else its client.
 */
export function applicationOf(p: Principal): string {
  return typeof p.claims.app_id === "string" && p.claims.app_id !== "" ? p.claims.app_id : (p.clientId ?? "");
}
