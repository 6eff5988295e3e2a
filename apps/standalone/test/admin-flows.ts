import type { TestStack } from "./stack-helpers.ts";

// The admin API through the in-process stack: an operator's token per scope
// (cached), JSON requests, the merged audit log.

type Method = "GET" | "POST" | "PATCH" | "DELETE" | "PUT";

const tokens = new WeakMap<TestStack, Map<string, string>>();

/** An operator client's token with `scope` (cached per stack). */
export async function opToken(s: TestStack, scope = "admin"): Promise<string> {
  const byScope = tokens.get(s) ?? new Map<string, string>();
  tokens.set(s, byScope);
  if (!byScope.has(scope)) byScope.set(scope, await s.operatorToken(scope));
  return byScope.get(scope)!;
}

/**
 * An /admin/v1 request. `token`: a token, null for none, or a scope to get
 * an operator token with (default "admin"). A body is sent as JSON.
 */
export async function admin(
  s: TestStack,
  method: Method,
  url: string,
  opts: { body?: unknown; token?: string | null; scope?: string; headers?: Record<string, string> } = {},
) {
  const token = opts.token === undefined ? await opToken(s, opts.scope ?? "admin") : opts.token;
  const headers: Record<string, string> = {
    ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    ...opts.headers,
  };
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  return s.app.inject({
    method,
    url,
    headers,
    ...(opts.body === undefined ? {} : { payload: JSON.stringify(opts.body) }),
  });
}

export interface AuditItem {
  id: string;
  time: string;
  actor: string;
  action: string;
  target: string;
  address: string;
  details: Record<string, unknown>;
}

/** The newest audit entries matching the query (GET /admin/v1/audit). */
export async function audit(s: TestStack, query: Record<string, string>): Promise<AuditItem[]> {
  const res = await admin(s, "GET", `/admin/v1/audit?${new URLSearchParams(query)}`, { scope: "admin:read" });
  if (res.statusCode !== 200) throw new Error(`audit: ${res.statusCode} ${res.body}`);
  return res.json().content.items;
}

/** How the audit names the test stack's operator client. */
export const OPERATOR_ACTOR = "client:test-operator";

/** The address app.inject requests come from. */
export const INJECT_ADDRESS = "127.0.0.1";
