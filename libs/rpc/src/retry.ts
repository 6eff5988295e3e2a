import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";

// Codes a call gets when no service answered it: a refused stream (the peer
// sent GOAWAY), a refused or reset connection (its streams end with CANCEL
// when the socket closes first), a balancer's own 503.
const TRANSPORT_CODES = new Set([Code.Unavailable, Code.Aborted, Code.Canceled, Code.Unknown, Code.Internal]);
const RETRY_DELAY_MS = 20;

/** Whether the error is the transport's, not a service's answer (a Connect answer carries an application/* type). */
export function refusedBeforeAnswer(err: unknown): boolean {
  if (!(err instanceof ConnectError) || !TRANSPORT_CODES.has(err.code)) return false;
  return !err.metadata.get("content-type")?.startsWith("application/");
}

/**
 * Retries a unary call once when no replica answered it (contract section
 * 16): a stopping peer refused the stream or the connection, or reset it
 * before any answer, or a balancer had no replica for it. The retry opens a
 * new connection, which the balancer gives to another replica. A service's
 * own error is never retried; neither are streams (their messages are spent).
 */
export function retryRefusedInterceptor(): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (err) {
      // An aborted signal is the caller's own cancel (or deadline): not the transport's.
      if (req.stream || req.signal.aborted || !refusedBeforeAnswer(err)) throw err;
      await new Promise((r) => setTimeout(r, RETRY_DELAY_MS));
      return await next(req);
    }
  };
}
