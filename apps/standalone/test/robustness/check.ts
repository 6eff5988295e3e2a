import type { FuzzRequest } from "./requests.ts";

// What every answer must be: never a 5xx; an error is the contract section 2
// envelope, the RFC 6749 form on /oauth2/*, or a hosted page where the route
// is a page; never a stack trace.

/** Routes that are HTML pages for people (their errors are pages too). */
const PAGES = [
  /^\/activityid\/v1\/user\/(confirm|confirmed|confirm\/resend|terms|activate)$/,
  /^\/oauth2\/(authorize|logout|idp\/callback)$/,
  /^\/device(\/callback)?$/,
];

export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

function envelopeProblem(body: any, status: number): string | undefined {
  if (body?.result?.status !== status) return `result.status ${body?.result?.status} ≠ ${status}`;
  if (typeof body.result.elapsed !== "number") return "result.elapsed missing";
  const e = body.errors;
  if (!e || typeof e.code !== "string" || !/^[a-z][a-z0-9_]*$/.test(e.code))
    return "errors.code missing or not snake_case";
  if (typeof e.message !== "string" || !e.message) return "errors.message missing";
  if (typeof e.details !== "string") return "errors.details missing";
  if (!Array.isArray(e.items)) return "errors.items missing";
  for (const i of e.items)
    if (typeof i?.field !== "string" || typeof i.code !== "string" || typeof i.message !== "string")
      return "malformed errors.items entry";
  return undefined;
}

function oauthProblem(body: any): string | undefined {
  if (typeof body?.error !== "string" || !/^[a-z_]+$/.test(body.error)) return "no RFC 6749 error";
  if (body.error_description !== undefined && typeof body.error_description !== "string")
    return "error_description not a string";
  const extra = Object.keys(body).filter((k) => !["error", "error_description", "error_uri"].includes(k));
  return extra.length ? `unexpected members ${extra.join(", ")}` : undefined;
}

/** Why `res` is not an acceptable answer to `req` (undefined when it is). */
export function answerProblem(req: FuzzRequest, res: Answer): string | undefined {
  if (res.statusCode >= 500) return `status ${res.statusCode}`;
  if (/\bat [^\n]*\.(ts|js):\d+:\d+/.test(res.body)) return "stack trace in the body";
  // A HEAD answer has no body (RFC 9110 section 9.3.2): its status is all there is to check.
  if (res.statusCode < 400 || req.method === "HEAD") return undefined;
  const path = req.url.split("?")[0]!;
  const type = String(res.headers["content-type"] ?? "");
  // RFC 6750 section 3: a bearer challenge may come with no body
  if ((res.statusCode === 401 || res.statusCode === 403) && res.headers["www-authenticate"] && !res.body)
    return undefined;
  if (type.startsWith("text/html")) return PAGES.some((p) => p.test(path)) ? undefined : "HTML error on a JSON route";
  if (!type.startsWith("application/json")) return `error with content-type "${type}"`;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return "error body is not JSON";
  }
  if (path.startsWith("/oauth2/")) return oauthProblem(body);
  // Discovery documents are OAuth's (RFC 8414): their 405 is in the OAuth form, errors before routing in the envelope.
  if (path.startsWith("/.well-known/") && res.statusCode === 405) return oauthProblem(body);
  return envelopeProblem(body, res.statusCode);
}
