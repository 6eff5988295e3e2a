export * from "./catalogue.ts";
export * from "./sign.ts";
export { isPrivateAddress, systemResolve, type Resolve } from "@gatehouse/outbound";
export { urlProblem, resolvedUrlProblem, checkedAddress, TargetRefused, type TargetPolicy } from "./target.ts";
export { postWebhook, DELIVERY_TIMEOUT_MS, type AttemptResult, type PostOptions } from "./send.ts";
export * from "./schedule.ts";
