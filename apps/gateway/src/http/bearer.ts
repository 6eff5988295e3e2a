import type { FastifyRequest } from "fastify";

/** The bearer token of the Authorization header (RFC 6750 section 2.1), or undefined. */
export function bearerToken(req: FastifyRequest): string | undefined {
  const m = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)$/i.exec(req.headers.authorization ?? "");
  return m?.[1];
}

/** Call options that forward the caller's own token to a service (which checks its scopes). */
export const asCaller = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
