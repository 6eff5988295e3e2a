export * from "./provider.ts";
export * from "./presets.ts";
export * from "./outbound.ts";
export * from "./client.ts";
export * from "./round-trip.ts";
export type { Configuration } from "openid-client";
