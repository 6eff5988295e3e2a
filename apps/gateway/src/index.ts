export { createGateway } from "./app.ts";
export type { GatewayDeps } from "./deps.ts";
// The admin API's JSON shapes, which the CLI prints too (one mapping of each shape).
export { adminApplicationToJson, adminUserToJson, importJobJson, page } from "./http/admin-json.ts";
export { ACTIVATE_PATH } from "./hosted/paths.ts";
