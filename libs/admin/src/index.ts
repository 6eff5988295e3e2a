export * from "./actor.ts";
export * from "./log.ts";
export * from "./list.ts";
export * from "./pages.ts";
export * from "./proto.ts";
export * from "./bulk.ts";
