import type { Violation } from "@gatehouse/errors";

// Text a request may carry: well-formed Unicode without NUL. PostgreSQL
// cannot store a NUL (error 22021), a lone surrogate is no character at all,
// and bad UTF-8 is no text; each is refused at the edge with a 400.

/** JSON deeper than this is refused before anything walks it (the contract's envelopes need 7). */
export const MAX_JSON_DEPTH = 32;

// With the u flag a surrogate pair is one code point: only a lone surrogate is \p{Cs}.
// eslint-disable-next-line no-control-regex -- the NUL is what this looks for
const UNCLEAN = /[\u0000\p{Cs}]/u;

export function isCleanText(s: string): boolean {
  return !UNCLEAN.test(s);
}

const PLAIN_URL = /^[\x21\x23-\x24\x26-\x7e]*$/;

/**
 * Whether a percent-encoded string (a URL, a query string, a form body)
 * decodes to clean text: every escape well formed, valid UTF-8 (no overlong
 * forms, no encoded surrogates), no NUL.
 */
export function isCleanUrlEncoded(s: string): boolean {
  if (PLAIN_URL.test(s)) return true;
  let decoded: string;
  try {
    decoded = decodeURIComponent(s);
  } catch {
    return false;
  }
  return isCleanText(decoded);
}

export type JsonProblem = { kind: "text"; violations: Violation[] } | { kind: "depth" };

/**
 * Walks a parsed body (JSON or form) without recursion: every key and string
 * value must be clean text, and the nesting at most MAX_JSON_DEPTH deep.
 * Violations name the dotted path of the contract (`object.datas.name.value`).
 */
export function inspectBody(body: unknown, prefix = ""): JsonProblem | undefined {
  const violations: Violation[] = [];
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: body, path: prefix, depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === "string") {
      if (!isCleanText(value)) violations.push({ field: path, code: "invalid_text" });
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (depth >= MAX_JSON_DEPTH) return { kind: "depth" };
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    for (const [key, child] of entries) {
      const at = path ? `${path}.${key}` : key;
      // A bad key cannot be named as it is: the path stops at its parent.
      if (!isCleanText(key)) violations.push({ field: path, code: "invalid_text" });
      else stack.push({ value: child, path: at, depth: depth + 1 });
    }
  }
  return violations.length ? { kind: "text", violations: violations.reverse() } : undefined;
}
