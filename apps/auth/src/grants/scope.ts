import { domainError } from "@gatehouse/errors";

// RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The scope to grant: the requested subset of `allowed`, or all of `allowed` when none is asked. */
export function grantedScope(requested: string | undefined, allowed: readonly string[]): string {
  if (requested === undefined) return allowed.join(" ");
  const tokens = requested.split(" ");
  if (tokens.some((t) => !SCOPE_TOKEN.test(t))) throw domainError("INVALID_SCOPE", "scope is malformed");
  const unknown = tokens.filter((t) => !allowed.includes(t));
  if (unknown.length) throw domainError("INVALID_SCOPE", `scope not allowed for this client: ${unknown.join(" ")}`);
  return [...new Set(tokens)].join(" ");
}
