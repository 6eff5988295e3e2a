import type { ClientCredentials } from "@gatehouse/proto";
import type { TokenResponse } from "../grants/index.ts";
import { fromEarlierStep, type TokenEndpointContext, type TokenEndpointDeps, type TokenStep } from "./context.ts";
import { authenticateClient, checkParameters, runGrant, selectGrant } from "./steps.ts";

export type { TokenEndpointDeps } from "./context.ts";

/** The token endpoint, in order; each step throws the OAuth error that stops the request. */
export const tokenEndpointSteps: readonly TokenStep[] = [authenticateClient, selectGrant, checkParameters, runGrant];

export async function runTokenEndpoint(
  deps: TokenEndpointDeps,
  request: { client: ClientCredentials | undefined; grantType: string; parameters: Readonly<Record<string, string>> },
  steps: readonly TokenStep[] = tokenEndpointSteps,
): Promise<TokenResponse> {
  const ctx: TokenEndpointContext = { deps, request };
  for (const step of steps) await step(ctx);
  return fromEarlierStep(ctx.response, "response");
}
