// oidc-provider ships no types; the tests use a small part of it.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";
  interface KoaContext {
    path: string;
    method: string;
    query: Record<string, string | undefined>;
    body: unknown;
    status: number;
    set(name: string, value: string): void;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(mw: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    proxy: boolean;
    on(event: string, listener: (ctx: KoaContext, err: Error) => void): void;
  }
}
