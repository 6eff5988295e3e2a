// RFC 6749 section 3.3: scope = scope-token *( SP scope-token ),
// scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+(?: [\x21\x23-\x5B\x5D-\x7E]+)*$/;

/** The distinct scope tokens of a scope parameter, or undefined when it is malformed. */
export function parseScope(raw: string): string[] | undefined {
  if (!SCOPE.test(raw)) return undefined;
  return [...new Set(raw.split(" "))];
}
