import type { DescService } from "@bufbuild/protobuf";
import {
  createClient,
  createRouterTransport,
  type Client,
  type ConnectRouter,
  type Interceptor,
  type Transport,
} from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import type { InternalTokens } from "./internal-token.ts";
import { clientInterceptor } from "./interceptors.ts";
import { retryRefusedInterceptor } from "./retry.ts";
import { traceClientInterceptor } from "./tracing.ts";

export type Routes = (router: ConnectRouter) => void;

/** A service wired in-process: same handlers, interceptors and protocol, no network. */
export function inProcessTransport(
  routes: Routes,
  serverInterceptors: Interceptor[],
  clientInterceptors: Interceptor[] = [],
): Transport {
  return createRouterTransport(routes, {
    router: { interceptors: serverInterceptors },
    transport: { interceptors: clientInterceptors },
  });
}

/** Connect over HTTP/2 cleartext to a service process (or its balancer); a call no replica answered is retried once. */
export function httpTransport(baseUrl: string, clientInterceptors: Interceptor[] = []): Transport {
  return createConnectTransport({
    baseUrl,
    httpVersion: "2",
    interceptors: [retryRefusedInterceptor(), traceClientInterceptor(), ...clientInterceptors],
  });
}

/** A typed client that authenticates as service `caller` with an internal token. */
export function serviceClient<S extends DescService>(service: S, transport: Transport): Client<S> {
  return createClient(service, transport);
}

/** The client interceptors a service uses to call another service (with `extraScopes` beside the internal one). */
export function callerInterceptors(
  tokens: InternalTokens,
  caller: string,
  extraScopes: readonly string[] = [],
): Interceptor[] {
  return [clientInterceptor(() => tokens.token(caller, extraScopes))];
}
