/**
 * Form parameters of an OAuth request, each given at most once (RFC 6749
 * section 3.2: "Request and response parameters MUST NOT be included more
 * than once"). Empty values count as omitted.
 */
export function singleParams(body: unknown): { params: Record<string, string> } | { repeated: string } {
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  if (body && typeof body === "object") {
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      if (Array.isArray(v)) return { repeated: k };
      if (typeof v === "string" && v !== "") params[k] = v;
    }
  }
  return { params };
}
