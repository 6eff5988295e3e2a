import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Logger } from "@gatehouse/logging";
import { PendingAssertionSchema, type UsersService } from "@gatehouse/proto";
import type { ResolvedEntrypoint } from "../users-service.ts";
import type { CatalogAssertion } from "./catalog.ts";
import type { Terms } from "./terms.ts";

const toPending = (a: CatalogAssertion) => create(PendingAssertionSchema, a);

/** GetPendingTerms and AnswerTerms: the hosted terms page of a 451 answer, by its sealed token. */
export function termsRpc(
  terms: Terms,
  entrypoints: (id: string) => Promise<ResolvedEntrypoint | undefined>,
  logger: Logger,
): Pick<ServiceImpl<typeof UsersService>, "getPendingTerms" | "answerTerms"> {
  const entrypointOf = async (id: string) => (await entrypoints(id))?.entrypoint;
  return {
    async getPendingTerms(req) {
      return { assertions: (await terms.pendingByToken(req.termsToken, entrypointOf)).map(toPending) };
    },
    async answerTerms(req) {
      const answers = req.answers.map((a) => ({ key: a.key, version: a.version, value: a.value }));
      const remaining = await terms.answerByToken(req.termsToken, answers, req.caller?.sourceId ?? "", entrypointOf);
      logger.info({ answered: answers.length, remaining: remaining.length }, "terms answered on the hosted page");
      return { remaining: remaining.map(toPending) };
    },
  };
}
