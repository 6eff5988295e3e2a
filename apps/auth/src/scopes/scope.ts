import { domainError } from "@gatehouse/errors";

// RFC 6749 section 3.3: scope = scope-token *( SP scope-token ),
// scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+(?: [\x21\x23-\x5B\x5D-\x7E]+)*$/;

/** The distinct scope tokens of a scope parameter, or undefined when it is malformed. */
export function parseScope(raw: string): string[] | undefined {
  if (!SCOPE.test(raw)) return undefined;
  return [...new Set(raw.split(" "))];
}

/** RFC 6749 section 6: the requested scope may only narrow what the session was granted; absent = all of it. */
export function narrowedScopes(requested: string | undefined, granted: string): string[] {
  const all = granted ? granted.split(" ") : [];
  if (requested === undefined) return all;
  const scopes = parseScope(requested);
  if (!scopes) throw domainError("INVALID_SCOPE", "scope must be space-separated scope tokens (RFC 6749 section 3.3)");
  const extra = scopes.filter((s) => !all.includes(s));
  if (extra.length) throw domainError("INVALID_SCOPE", `scope not granted to this session: ${extra.join(" ")}`);
  return scopes;
}
