import { clientCredentials } from "./client-credentials.ts";
import type { Grant } from "./types.ts";

/** The grants of the token endpoint; refresh_token and authorization_code register here. */
export const grants: ReadonlyMap<string, Grant> = new Map([clientCredentials].map((g) => [g.grantType, g]));

export type { Grant, GrantContext, TokenResult } from "./types.ts";
