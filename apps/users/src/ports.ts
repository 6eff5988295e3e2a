import type { Queryable } from "@gatehouse/db";
import type { ProviderSettings } from "@gatehouse/idp";
import type { ConfirmationJob } from "@gatehouse/jobs";
import type { AuthorizationCode, AuthorizationRequest, Entrypoint, PendingAssertion, Session } from "@gatehouse/proto";

// The users service's outbound ports: what it asks of the registry, the
// auth service and the delivery queue. Adapters over their RPC clients live in ./adapters; tests
// give in-memory fakes.

/** An entry point with its application's settings, as the registry's GetEntrypoint answers. */
export interface ResolvedEntrypoint {
  entrypoint: Entrypoint;
  clientId: string;
  /** The application's context.url whitelist (exact strings). */
  whitelist?: string[];
  /** Where a confirmation link lands without a whitelisted context.url; empty = the hosted page. */
  defaultCallback?: string;
  /** The application's MFA policy: off (default), optional or required. */
  mfa?: string;
  /** Section 17: the hosted pages' bot check (off, altcha), its own hourly SMS budget, its allowed calling codes. */
  captcha?: string;
  smsPerHour?: number;
  phonePrefixes?: string[];
}

/** Entry points by id (the registry's GetEntrypoint); undefined when there is no such entry point. */
export type EntrypointDirectory = (entrypointId: string) => Promise<ResolvedEntrypoint | undefined>;

/**
 * The keys of the operator's data-field catalog (the registry's ListCatalog).
 * Asked only when a request names a data key its entry point lacks, to say
 * whether the key exists at all (`unknown_key`) or belongs to other forms
 * (`not_in_entrypoint`).
 */
export type DataFieldCatalog = () => Promise<ReadonlySet<string>>;

/** The registry's legal-assertion catalog: the latest versions of the assertions of these typologies. */
export type AssertionCatalog = (typologies: string[]) => Promise<PendingAssertion[]>;

/** An identity provider with its client secret opened (the registry's GetUpstreamClient); undefined when unknown. */
export type UpstreamClients = (key: string) => Promise<{ settings: ProviderSettings; secret: string } | undefined>;

/** What the auth service gives a finished login. */
export interface LoginGrants {
  /** Opens a login session of the user at the application: an access token and a new refresh family. */
  openSession(userId: string, clientId: string): Promise<Session>;
  /**
   * The single-use code of a hosted login, bound to the authorization request, the user and when they
   * authenticated; an operator person's console sign-in names their email (the tokens' `email` claim).
   */
  issueCode(
    request: AuthorizationRequest,
    userId: string,
    authTime: Date,
    operatorEmail?: string,
  ): Promise<AuthorizationCode>;
}

/** A live login session of a user, as the auth service reports it (no token or id). */
export interface UserSessionInfo {
  clientId: string;
  created: Date;
  refreshed: Date;
  expires: Date;
  /** The device kind of a device sign-in (RFC 8628 source_id), when there was one. */
  sourceId?: string;
}

/** The user's sessions, which the auth service owns (UserSessionsService). */
export interface UserSessions {
  list(userId: string): Promise<UserSessionInfo[]>;
  /** Ends every session and refuses every token issued to the user before now; how many were live. */
  endAll(userId: string): Promise<number>;
}

/** Hands one delivery to the queue inside the change's transaction `tx`; throws when the queue cannot take it. */
export type Enqueue = (job: ConfirmationJob, tx: Queryable) => Promise<void>;
