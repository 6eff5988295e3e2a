export * from "./principal.ts";
export * from "./internal-token.ts";
export * from "./access-tokens.ts";
export * from "./interceptors.ts";
export * from "./metrics.ts";
export * from "./transports.ts";
export * from "./serve.ts";
export * from "./module.ts";
