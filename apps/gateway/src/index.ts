export { createGateway } from "./app.ts";
export type { GatewayDeps } from "./deps.ts";
