import { create } from "@bufbuild/protobuf";
import type { KeyRing } from "@gatehouse/secrets";
import { TermsRequiredSchema } from "@gatehouse/proto";
import { CONSOLE_CLIENT_ID } from "@gatehouse/rpc";
import { flowTokenOf } from "../flow/token.ts";
import type { LoginStep } from "../flow/steps.ts";
import type { AssertionCatalog } from "../ports.ts";
import { typologiesOf } from "./catalog.ts";
import { blocksLogin, pendingAssertions } from "./pending.ts";
import { sealTermsToken } from "./token.ts";

/**
 * The terms step of the login (contract section 5: after MFA, the last
 * interruption): the mandatory assertions of the entry point's typologies
 * whose latest version the user has not accepted stop the login with
 * TermsRequired (451). It carries every pending assertion (optional ones
 * too, to answer at once) and the sealed token of the hosted terms page.
 * An operator signing in to the console is not asked: the assertions are
 * the consumers' terms, and the console's typology is only a default.
 */
export function termsStep(deps: { keys: KeyRing; catalog: AssertionCatalog }): LoginStep {
  return async (ctx) => {
    if (ctx.user.operator && ctx.resolved.entrypoint.id === CONSOLE_CLIENT_ID) return undefined;
    const pending = pendingAssertions(ctx.user.assertions, await deps.catalog(typologiesOf(ctx.resolved.entrypoint)));
    if (!blocksLogin(pending)) return undefined;
    const termsToken = sealTermsToken(deps.keys, {
      userId: ctx.user.id,
      clientId: ctx.resolved.clientId,
      entrypointId: ctx.resolved.entrypoint.id,
    });
    return {
      case: "termsRequired",
      value: create(TermsRequiredSchema, { assertions: pending, termsToken, flowToken: flowTokenOf(deps.keys, ctx) }),
    };
  };
}
