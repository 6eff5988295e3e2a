import { domainError } from "@gatehouse/errors";
import type { UserRecord } from "../users/record.ts";

/**
 * The account's own state, the login's step right after the credentials (and
 * again once a 428 is passed, which may finish after a lock): an account an
 * operator locked answers ACCOUNT_LOCKED (403). Only the password's holder
 * gets that far, so the answer tells a guesser nothing, and nothing is
 * recorded or sent for a locked account.
 */
export function checkAccountStatus(user: UserRecord): void {
  if (user.lockedAt) throw domainError("ACCOUNT_LOCKED");
}
