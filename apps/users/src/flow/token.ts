import { randomBytes } from "node:crypto";
import { domainError } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";
import type { AuthorizationRequest } from "@gatehouse/proto";
import { sha256Base64url, type KeyRing } from "@gatehouse/secrets";
import type { LoginContext } from "./steps.ts";

/**
 * A hosted login in progress between two pages (in the spirit of Ory
 * Kratos' flows): who authenticated, when, for which application, entry
 * point and authorization request, and what is already done. It travels in
 * the page's form as a sealed token (AES-256-GCM under a key derived from
 * SECRET_KEY), so any replica continues it; nothing is stored until it ends.
 */
export interface FlowState {
  /** Random id shared by every token of one flow; a finished flow's id is spent in the kv. */
  flowId: string;
  userId: string;
  clientId: string;
  entrypointId: string;
  /** SHA-256 of the authorization request: the flow only continues for that request (its PKCE challenge included). */
  authorization: string;
  /** When the user authenticated (password, code, or registration): the ID token's auth_time. */
  authTime: number;
  /** The second factor was proven in this flow. */
  mfaPassed: boolean;
  /** A confirmation code was just sent for the blocking identifier (registration, or the 412's resend). */
  codeSent: boolean;
}

const BOX = "login-flow";
const AAD = "login-flow-v1";
/** A page of a hosted flow works this long; each page answered issues a fresh token. */
export const FLOW_TOKEN_TTL_SECONDS = 15 * 60;

const invalid = () => domainError("LOGIN_FLOW_INVALID");
const doneKey = (flowId: string) => `users:flow:done:${flowId}`;

/** The request a flow is bound to: every member the code will carry. */
export function authorizationDigest(a: AuthorizationRequest): string {
  return sha256Base64url(JSON.stringify([a.clientId, a.redirectUri, a.scope, a.codeChallenge, a.nonce]));
}

export const newFlowId = () => randomBytes(16).toString("base64url");

export function sealFlowToken(keys: KeyRing, s: FlowState, now = Date.now()): string {
  const body = { ...s, exp: Math.floor(now / 1000) + FLOW_TOKEN_TTL_SECONDS };
  return keys.box(BOX).seal(JSON.stringify(body), AAD);
}

/**
 * The state of a flow token presented by the caller's application and entry
 * point with the same authorization request; LOGIN_FLOW_INVALID when forged,
 * damaged, expired, bound elsewhere, or already finished.
 */
export async function openFlowToken(
  keys: KeyRing,
  kv: Kv,
  token: string,
  expect: { clientId: string; entrypointId: string; authorization: AuthorizationRequest | undefined },
  now = Date.now(),
): Promise<FlowState> {
  let body: FlowState & { exp?: unknown };
  try {
    // The full 128-bit GCM tag (22 base64url chars): Node would accept a truncated one.
    if (token.length > 4000 || token.split(".")[3]?.length !== 22) throw new Error("shape");
    body = JSON.parse(keys.box(BOX).open(token, AAD)) as typeof body;
  } catch {
    throw invalid();
  }
  if (typeof body.exp !== "number" || body.exp * 1000 <= now) throw invalid();
  if (!expect.authorization || body.authorization !== authorizationDigest(expect.authorization)) throw invalid();
  if (body.clientId !== expect.clientId || body.entrypointId !== expect.entrypointId) throw invalid();
  if (await kv.get(doneKey(body.flowId))) throw invalid();
  const { exp: _exp, ...state } = body;
  return state;
}

/** Ends a flow as it grants its code: exactly one continuation of a flow gets a code. */
export async function finishFlow(kv: Kv, flowId: string): Promise<void> {
  if (!(await kv.setIfAbsent(doneKey(flowId), "1", FLOW_TOKEN_TTL_SECONDS + 60))) throw invalid();
}

/**
 * The token that continues this login on the next page, or "" when the login
 * is not a hosted one (no authorization request: JSON callers resume
 * differently). It keeps the flow's id, when the user authenticated, and
 * whether MFA was passed.
 */
export function flowTokenOf(keys: KeyRing, ctx: LoginContext, opts: { codeSent?: boolean } = {}): string {
  if (!ctx.authorization || !ctx.flowId) return "";
  return sealFlowToken(keys, {
    flowId: ctx.flowId,
    userId: ctx.user.id,
    clientId: ctx.resolved.clientId,
    entrypointId: ctx.resolved.entrypoint.id,
    authorization: authorizationDigest(ctx.authorization),
    authTime: ctx.authenticatedAt.getTime(),
    mfaPassed: ctx.mfaPassed ?? false,
    codeSent: opts.codeSent ?? false,
  });
}
