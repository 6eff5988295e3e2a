import type { Routes } from "./transports.ts";
import type { ScopePolicy } from "./interceptors.ts";

/**
 * What every RPC service exports to the launcher: its routes, the scopes each
 * method needs, and its readiness. The launcher adds the interceptors and
 * chooses the transport (in-process for `npm start`, HTTP for start:services).
 */
export interface ServiceModule {
  name: string;
  routes: Routes;
  policy: ScopePolicy;
  ready(): Promise<boolean>;
  close(): Promise<void>;
}
