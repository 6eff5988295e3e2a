import { createContextKey } from "@connectrpc/connect";

/** Who is calling an RPC: a Gatehouse service, or the holder of an access token. */
export interface Principal {
  /** `service:<name>` for internal callers, else the token's `sub`. */
  subject: string;
  /** OAuth client the token was issued to (absent for internal callers). */
  clientId: string | undefined;
  scopes: ReadonlySet<string>;
  internal: boolean;
  /** The raw bearer token, for services that must forward it. */
  token: string;
  claims: Readonly<Record<string, unknown>>;
}

export const kPrincipal = createContextKey<Principal | undefined>(undefined, { description: "authenticated caller" });
