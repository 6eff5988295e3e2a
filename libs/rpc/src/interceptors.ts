import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { domainError } from "@gatehouse/errors";
import { currentRequestId, REQUEST_ID_HEADER, sanitizeRequestId, withRequestId, type Logger } from "@gatehouse/logging";
import type { AccessTokenVerifier } from "./access-tokens.ts";
import type { InternalTokens } from "./internal-token.ts";
import { rpcDuration } from "./metrics.ts";
import { kPrincipal, type Principal } from "./principal.ts";

/**
 * Per RPC method (its local name, e.g. "createApplication"): the scopes of
 * which a caller needs at least one. A method absent from the policy is refused.
 */
export type ScopePolicy = Record<string, readonly string[]>;

/**
 * Authenticates every RPC with a bearer JWT (an internal service token or an
 * access token of the auth service) and checks the method's scopes.
 */
export function authnInterceptor(deps: {
  policy: ScopePolicy;
  internal: InternalTokens;
  verifyAccessToken?: AccessTokenVerifier;
}): Interceptor {
  return (next) => async (req) => {
    const needed = deps.policy[req.method.localName];
    if (!needed) throw domainError("PERMISSION_DENIED", `method ${req.method.name} is not exposed`);
    const auth = req.header.get("authorization") ?? "";
    const m = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i.exec(auth);
    if (!m) throw domainError("UNAUTHENTICATED", "bearer token required");
    const token = m[1]!;
    const principal: Principal | undefined =
      (await deps.internal.verify(token)) ?? (deps.verifyAccessToken ? await deps.verifyAccessToken(token) : undefined);
    if (!principal) throw domainError("UNAUTHENTICATED", "invalid or expired token");
    if (!needed.some((s) => principal.scopes.has(s))) {
      throw domainError("INSUFFICIENT_SCOPE", `requires one of: ${needed.join(", ")}`);
    }
    req.contextValues.set(kPrincipal, principal);
    return next(req);
  };
}

/**
 * Outermost server interceptor: carries the request id, logs each call with its
 * code and time, counts it, and turns anything unexpected into a bare Internal
 * error so that no stack trace or driver message leaves the service.
 */
export function observeInterceptor(logger: Logger, service: string): Interceptor {
  return (next) => (req) => {
    const id = req.header.get(REQUEST_ID_HEADER);
    // In-process calls already run inside the caller's request context.
    if (id !== null && id === currentRequestId()) return observe(next, req);
    return withRequestId(sanitizeRequestId(id), () => observe(next, req));
  };

  async function observe(next: Parameters<Interceptor>[0], req: Parameters<Parameters<Interceptor>[0]>[0]) {
    const started = performance.now();
    let code = "ok";
    try {
      return await next(req);
    } catch (err) {
      if (err instanceof ConnectError) {
        code = Code[err.code];
        throw err;
      }
      if (isDatabaseUnreachable(err)) {
        code = Code[Code.Unavailable];
        logger.warn({ err, method: req.method.name }, "database unreachable");
        throw domainError("STORE_UNAVAILABLE", "the database is unreachable", { metadata: { retry_after: "1" } });
      }
      if (isInvalidTextError(err)) {
        code = Code[Code.InvalidArgument];
        throw domainError(
          "MALFORMED_REQUEST",
          "the request carries text the database cannot store (a NUL byte or invalid encoding)",
        );
      }
      code = Code[Code.Internal];
      logger.error({ err, method: req.method.name }, "unexpected error in RPC handler");
      throw domainError("INTERNAL", "internal error");
    } finally {
      const ms = performance.now() - started;
      rpcDuration.observe({ service, method: req.method.name, code }, ms / 1000);
      logger.debug({ method: req.method.name, code, ms: Math.round(ms * 10) / 10 }, "rpc");
    }
  }
}

// PostgreSQL's "character not in repertoire" (a NUL byte) and "untranslatable character":
// the caller's text, not a server fault. The gateway refuses such text first; this is the second line.
const INVALID_TEXT_CODES = new Set(["22021", "22P05"]);

const causes = function* (err: unknown) {
  for (let e = err, i = 0; e && typeof e === "object" && i < 5; e = (e as { cause?: unknown }).cause, i++)
    yield e as { code?: unknown; message?: unknown };
};

function isInvalidTextError(err: unknown): boolean {
  for (const e of causes(err)) if (INVALID_TEXT_CODES.has(String(e.code))) return true;
  return false;
}

// The database cannot be reached (down, restarting, the network cut): not the
// request's fault, a 503 to retry. Socket errors, PostgreSQL's connection
// exception class 08 and its shutdown / not-yet-up codes, pg's own messages.
const UNREACHABLE_SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
const UNREACHABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const UNREACHABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

function isDatabaseUnreachable(err: unknown): boolean {
  for (const e of causes(err)) {
    const code = String(e.code);
    if (UNREACHABLE_SOCKET_CODES.has(code) || UNREACHABLE_SQLSTATES.has(code) || code.startsWith("08")) return true;
    if (typeof e.message === "string" && UNREACHABLE_MESSAGE.test(e.message)) return true;
  }
  return false;
}

/** Client side: sends the request id and a bearer (unless the call set its own Authorization). */
export function clientInterceptor(bearer: () => Promise<string>): Interceptor {
  return (next) => async (req) => {
    const id = currentRequestId();
    if (id) req.header.set(REQUEST_ID_HEADER, id);
    if (!req.header.has("authorization")) req.header.set("authorization", `Bearer ${await bearer()}`);
    return next(req);
  };
}
