import { domainError, validationError } from "@gatehouse/errors";
import type { AuthorizationRequest } from "@gatehouse/proto";
import { CONSOLE_CLIENT_ID, OPERATOR_PERSON_SCOPES } from "@gatehouse/rpc";
import type { UserRecord } from "../users/record.ts";

const scopesOf = (request: AuthorizationRequest) => (request.scope ? request.scope.split(" ") : []);
const asksAdmin = (request: AuthorizationRequest) => scopesOf(request).some((s) => OPERATOR_PERSON_SCOPES.includes(s));

/**
 * The admin scopes are asked for a person only through the console's public
 * client (the gateway refuses them elsewhere too). Checked with the rest of
 * the authorization request, before the password: bad input changes nothing.
 */
export function checkAdminScopes(request: AuthorizationRequest | undefined): void {
  if (request && asksAdmin(request) && request.clientId !== CONSOLE_CLIENT_ID) {
    throw validationError([
      {
        field: "authorization_request.scope",
        code: "not_allowed",
        description: "admin scopes only through the console",
      },
    ]);
  }
}

/**
 * The console signs in operator persons only (contract section 6): anyone
 * else who passes the password is told so (NOT_AN_OPERATOR, a page of its
 * own), and no code is issued. Checked right after the account's status,
 * before anything is recorded or sent.
 */
export function checkConsoleAccess(request: AuthorizationRequest | undefined, user: UserRecord): void {
  if (request?.clientId === CONSOLE_CLIENT_ID && !user.operator) throw domainError("NOT_AN_OPERATOR");
}

/**
 * The console signs operators in with email + password + TOTP (contract
 * section 6): its entry point offers no code sign-in, so an operator's
 * mailbox never stands in for the password. Refused as bad input, before
 * any code is sent or checked.
 */
export function refuseConsoleCode(entrypointId: string, field: string): void {
  if (entrypointId === CONSOLE_CLIENT_ID) {
    throw validationError([
      { field, code: "not_allowed", description: "the console signs in with the password and TOTP only" },
    ]);
  }
}

/** The email an operator's console tokens carry (the audit names the person by id and email); undefined for anyone else. */
export function operatorEmailOf(request: AuthorizationRequest | undefined, user: UserRecord): string | undefined {
  if (!request || request.clientId !== CONSOLE_CLIENT_ID || !user.operator || !asksAdmin(request)) return undefined;
  return user.identifiers.find((i) => i.key === "email")?.value;
}
