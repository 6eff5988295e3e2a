import { isIP } from "node:net";
import type { HandlerContext } from "@connectrpc/connect";
import { kPrincipal, type Principal } from "@gatehouse/rpc";

/**
 * The request header that carries the end client's address to a service (the
 * gateway sets it from the HTTP request); services write it into audit entries.
 */
export const CLIENT_ADDRESS_HEADER = "x-client-address";

/**
 * Who acted, as audit entries name it: `client:<client_id>` for a token a
 * client obtained for itself (client_credentials: sub = client_id),
 * `user:<user_id>` for a person's token (an operator person signed in to the
 * console), `service:<name>` for another Gatehouse service.
 */
export function actorOf(p: Principal | undefined): string {
  if (!p) return "unknown";
  if (p.internal) return p.subject;
  return p.subject === p.clientId ? `client:${p.subject}` : `user:${p.subject}`;
}

/** An IP address as given, or "" for anything else (the header is the caller's word, never free text). */
export function clientAddress(value: string | null | undefined): string {
  const v = (value ?? "").trim();
  return v.length <= 64 && isIP(v) ? v : "";
}

/**
 * The email of an operator person: the signed `email` claim that the auth
 * service writes only into console sessions' access tokens. Never read from
 * a header or a client's own token.
 */
export function actorEmailOf(p: Principal | undefined): string | undefined {
  if (!p || p.internal || p.subject === p.clientId) return undefined;
  const email = p.claims.email;
  return typeof email === "string" && email.length > 0 && email.length <= 254 ? email : undefined;
}

/** The audit context of an RPC: its actor (with an operator person's email) and the client address it carries. */
export interface AuditContext {
  actor: string;
  address: string;
  /** The operator person's email: recorded as `details.actorEmail`. */
  actorEmail?: string;
}

export function auditContext(ctx: HandlerContext): AuditContext {
  const principal = ctx.values.get(kPrincipal);
  const email = actorEmailOf(principal);
  return {
    actor: actorOf(principal),
    address: clientAddress(ctx.requestHeader.get(CLIENT_ADDRESS_HEADER)),
    ...(email ? { actorEmail: email } : {}),
  };
}
