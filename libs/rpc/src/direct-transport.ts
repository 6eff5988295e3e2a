import {
  create,
  type DescMessage,
  type DescMethodUnary,
  type DescService,
  type MessageInitShape,
} from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createContextValues,
  type ConnectRouter,
  type ContextValues,
  type HandlerContext,
  type Interceptor,
  type Transport,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import type { Routes } from "./transports.ts";

type UnaryFn = (req: UnaryRequest) => Promise<UnaryResponse>;

// Shared, never written: responses without headers, calls without a caller's signal.
const NO_HEADERS = new Headers();
const NEVER_ABORTED = new AbortController().signal;
type AnyImpl = Record<string, (msg: unknown, ctx: unknown) => unknown>;

/** Collects the service implementations that `routes` registers. */
function implementations(routes: Routes): Map<string, AnyImpl> {
  const impls = new Map<string, AnyImpl>();
  const recorder = {
    service(desc: DescService, impl: AnyImpl) {
      impls.set(desc.typeName, impl);
      return recorder;
    },
  };
  routes(recorder as unknown as ConnectRouter);
  return impls;
}

/**
 * In-process transport for `npm start`: the client and server interceptors and
 * the service implementation run exactly as over the network, on the same
 * request objects, but the messages are passed by reference instead of being
 * serialized, framed and parsed. `start:services` exercises the wire format.
 */
export function directTransport(
  routes: Routes,
  serverInterceptors: Interceptor[],
  clientInterceptors: Interceptor[] = [],
): Transport {
  const impls = implementations(routes);
  const chain = [...clientInterceptors, ...serverInterceptors];

  const invoke: UnaryFn = async (req) => {
    const fn = impls.get(req.service.typeName)?.[req.method.localName];
    if (!fn) throw new ConnectError(`${req.method.name} is not implemented`, Code.Unimplemented);
    // A lean handler context: the request's own headers, signal and values;
    // response headers only when a handler asks for them (most never do).
    let responseHeader: Headers | undefined;
    let responseTrailer: Headers | undefined;
    const ctx: HandlerContext = {
      service: req.service,
      method: req.method,
      protocolName: "in-process",
      requestMethod: "POST",
      url: req.url,
      signal: req.signal,
      timeoutMs: () => undefined,
      requestHeader: req.header,
      values: req.contextValues,
      get responseHeader() {
        return (responseHeader ??= new Headers());
      },
      get responseTrailer() {
        return (responseTrailer ??= new Headers());
      },
    };
    const out = await fn.call(impls.get(req.service.typeName), req.message, ctx);
    return {
      stream: false,
      service: req.service,
      method: req.method,
      header: responseHeader ?? NO_HEADERS,
      trailer: responseTrailer ?? NO_HEADERS,
      message: create(req.method.output, out as MessageInitShape<DescMessage>),
    } as UnaryResponse;
  };
  // The first interceptor is the outermost, as in Connect.
  const run = chain.reduceRight<UnaryFn>((next, interceptor) => interceptor(next as never) as UnaryFn, invoke);

  return {
    async unary<I extends DescMessage, O extends DescMessage>(
      method: DescMethodUnary<I, O>,
      signal: AbortSignal | undefined,
      _timeoutMs: number | undefined,
      header: ConstructorParameters<typeof Headers>[0] | undefined,
      input: MessageInitShape<I>,
      contextValues?: ContextValues,
    ): Promise<UnaryResponse<I, O>> {
      const req = {
        stream: false as const,
        service: method.parent,
        method,
        requestMethod: "POST",
        url: `in-process:///${method.parent.typeName}/${method.name}`,
        signal: signal ?? NEVER_ABORTED,
        header: new Headers(header),
        contextValues: contextValues ?? createContextValues(),
        message: create(method.input, input),
      };
      return (await run(req as unknown as UnaryRequest)) as unknown as UnaryResponse<I, O>;
    },
    async stream() {
      throw new ConnectError("streaming is not used in-process", Code.Unimplemented);
    },
  };
}
