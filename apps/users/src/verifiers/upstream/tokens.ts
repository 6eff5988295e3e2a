import { domainError } from "@gatehouse/errors";
import type { UpstreamChecks, UpstreamIdentity } from "@gatehouse/idp";
import type { KeyRing } from "@gatehouse/secrets";

// The sealed tokens of social sign-in (AES-256-GCM under keys derived from
// SECRET_KEY, so any replica opens them): the round trip's transaction, kept
// by the browser as a cookie between StartUpstreamLogin and the callback, and
// a verified identity waiting for the user (to prove the account that holds
// its email, or to fill what registration still needs).

/** What the callback must match: the checks of the provider's answer and the login they belong to. */
export interface UpstreamTransaction extends UpstreamChecks {
  provider: string;
  entrypointId: string;
  /** SHA-256 of the hosted login's authorization request. */
  authorization: string;
  exp: number;
}

/** A verified upstream identity, for the page that links it (after proof) or registers its user. */
export interface PendingIdentity {
  identity: UpstreamIdentity;
  entrypointId: string;
  authorization: string;
  exp: number;
}

export const TRANSACTION_TTL_MS = 10 * 60_000;
export const PENDING_TTL_MS = 15 * 60_000;

type Purpose = "upstream-transaction" | "upstream-link" | "upstream-signup";

export function sealUpstream(keys: KeyRing, purpose: Purpose, body: UpstreamTransaction | PendingIdentity): string {
  return keys.box(purpose).seal(JSON.stringify(body), purpose);
}

/** The token's body, or UPSTREAM_LOGIN_FAILED (invalid_state) when it is forged, for another purpose or expired. */
export function openUpstream<T extends { exp: number }>(keys: KeyRing, purpose: Purpose, token: string): T {
  let body: T;
  try {
    body = JSON.parse(keys.box(purpose).open(token, purpose)) as T;
  } catch {
    throw upstreamFailed("invalid_state");
  }
  if (!(body.exp > Date.now())) throw upstreamFailed("expired");
  return body;
}

/** Why a social sign-in failed; the hosted login says it on the login page (nothing was created or linked). */
export type UpstreamFailure =
  | "invalid_state"
  | "expired"
  | "provider_error"
  | "invalid_token"
  | "missing_subject"
  | "missing_email"
  | "not_offered"
  | "already_linked";

export function upstreamFailed(reason: UpstreamFailure, detail = "", provider = ""): Error {
  return domainError("UPSTREAM_LOGIN_FAILED", detail || undefined, {
    metadata: { reason, ...(provider ? { provider } : {}) },
  });
}
