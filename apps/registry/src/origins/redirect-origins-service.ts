import type { ServiceImpl } from "@connectrpc/connect";
import type { Queryable } from "@gatehouse/db";
import type { RedirectOriginsService } from "@gatehouse/proto";
import { INTERNAL_SCOPE, type ScopePolicy } from "@gatehouse/rpc";

/** Only Gatehouse services ask (the gateway, for CORS). */
export const redirectOriginsPolicy: ScopePolicy = { listRedirectOrigins: [INTERNAL_SCOPE] };

/**
 * The browser origin of a redirect URI (scheme://host[:port], lower case,
 * default port dropped: what a browser sends in Origin), or undefined for
 * anything a browser page cannot be served from (custom schemes of native apps).
 */
export function browserOrigin(uri: string): string | undefined {
  try {
    const u = new URL(uri);
    return u.protocol === "https:" || u.protocol === "http:" ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The distinct http(s) origins of every application's redirect URIs, sorted. */
export async function redirectOrigins(q: Queryable): Promise<string[]> {
  const { rows } = await q.query<{ uri: string }>(
    "SELECT DISTINCT uri FROM registry.clients, unnest(redirect_uris) AS uri WHERE kind = 'application'",
  );
  const origins = new Set<string>();
  for (const { uri } of rows) {
    const origin = browserOrigin(uri);
    if (origin) origins.add(origin);
  }
  return [...origins].sort();
}

/** RedirectOriginsService: the relying parties' browser origins, read from the applications' redirect URIs. */
export function createRedirectOriginsService(deps: { db: Queryable }): ServiceImpl<typeof RedirectOriginsService> {
  return {
    async listRedirectOrigins() {
      return { origins: await redirectOrigins(deps.db) };
    },
  };
}
