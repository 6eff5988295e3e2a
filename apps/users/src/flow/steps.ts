import type { AuthorizationRequest, Caller, LoginOutcome } from "@gatehouse/proto";
import type { ResolvedEntrypoint } from "../ports.ts";
import type { UserRecord } from "../users/record.ts";

/**
 * What the steps of a login see once the credentials are right (contract
 * section 5: confirmation 412, MFA 428, terms 451, the complete-account
 * check 206; then the grant).
 */
export interface LoginContext {
  user: UserRecord;
  /** The caller's entry point and its application's settings, resolved once per login. */
  resolved: ResolvedEntrypoint;
  caller: Caller | undefined;
  /** The login asked for the complete-account check (206); kept across a 428. */
  fca: boolean;
  /** The hosted login's authorization request: the grant is then a code, not a session. */
  authorization: AuthorizationRequest | undefined;
  /** When the user authenticated (the credentials, or the MFA step that finished it): auth_time. */
  authenticatedAt: Date;
  /** The hosted flow this login is (set with an authorization request): its pages continue it by flow token. */
  flowId?: string;
  /** The second factor was proven in this flow (a continued flow does not ask again), or by the credential itself (a passkey). */
  mfaPassed?: boolean;
  /** The confirmation step's resend: "send" (a login), "skip" (this flow has just sent a code). */
  resend?: "send" | "skip";
  /** Set by the complete-account step (fca): mandatory data still empty, which the grant carries (ProfileIncomplete, 206). */
  missingFields?: string[];
  /** The offer to create a passkey was answered on its page ("answered"), or its passkey failed ("retry": offer again). */
  passkeyOffer?: "answered" | "retry";
}

/** One case of LoginOutcome (a session, a code, or an interruption). */
export type LoginOutcomeCase = Exclude<LoginOutcome["outcome"], { case: undefined }>;

/** An interruption of the login: the case that ends it before the grant. */
export type Interruption = Extract<
  LoginOutcomeCase,
  { case: "confirmationRequired" | "mfaRequired" | "termsRequired" | "profileRequired" | "passkeyOffer" }
>;

/** A step of the login: an interruption ends the login there; undefined lets the next step run. */
export type LoginStep = (ctx: LoginContext) => Promise<Interruption | undefined>;
