export * from "./table.ts";
export * from "./connect.ts";
export * from "./http.ts";
