import type { ServiceImpl } from "@connectrpc/connect";
import type { Logger } from "@gatehouse/logging";
import type { UsersService } from "@gatehouse/proto";
import type { EntrypointDirectory } from "../ports.ts";
import type { Terms } from "./terms.ts";

/** GetPendingTerms and AnswerTerms: the hosted terms page of a 451 answer, by its sealed token. */
export function termsRpc(
  terms: Terms,
  entrypoints: EntrypointDirectory,
  logger: Logger,
): Pick<ServiceImpl<typeof UsersService>, "getPendingTerms" | "answerTerms"> {
  const entrypointOf = async (id: string) => (await entrypoints(id))?.entrypoint;
  return {
    async getPendingTerms(req) {
      return { assertions: await terms.pendingByToken(req.termsToken, entrypointOf) };
    },
    async answerTerms(req) {
      const answers = req.answers.map((a) => ({ key: a.key, version: a.version, value: a.value }));
      const remaining = await terms.answerByToken(req.termsToken, answers, req.caller?.sourceId ?? "", entrypointOf);
      logger.info({ answered: answers.length, remaining: remaining.length }, "terms answered on the hosted page");
      return { remaining };
    },
  };
}
