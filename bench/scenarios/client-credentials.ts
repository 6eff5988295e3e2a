import type { ComparedScenario } from "../lib/comparison.ts";
import { accessTokenSample, tokenRequest } from "../lib/scenario.ts";

/** Gatehouse must issue client_credentials tokens at least this many times as fast as oidc-provider. */
export const CLIENT_CREDENTIALS_TARGET_RATIO = 2.5;
export const clientCredentialsForm = { grant_type: "client_credentials", scope: "apps:read" };

/**
 * client_credentials through the gateway of `npm start` (PostgreSQL + Redis)
 * against oidc-provider, both issuing JWT access tokens signed with the same
 * algorithm (BENCH_ALG).
 */
export const clientCredentials: ComparedScenario = {
  name: "client_credentials",
  target: CLIENT_CREDENTIALS_TARGET_RATIO,
  request: (t) => tokenRequest(t, clientCredentialsForm),
  check: accessTokenSample,
};
