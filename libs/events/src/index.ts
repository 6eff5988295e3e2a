export * from "./catalogue.ts";
export * from "./sign.ts";
export { isPrivateAddress } from "./addresses.ts";
export { urlProblem, checkedAddress, TargetRefused, systemResolve, type Resolve, type TargetPolicy } from "./target.ts";
export { postWebhook, DELIVERY_TIMEOUT_MS, type AttemptResult, type PostOptions } from "./send.ts";
export * from "./schedule.ts";
