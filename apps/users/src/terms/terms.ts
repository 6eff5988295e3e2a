import type { JsonObject } from "@bufbuild/protobuf";
import { domainError, validationError } from "@gatehouse/errors";
import type { Entrypoint, PendingAssertion } from "@gatehouse/proto";
import type { KeyRing } from "@gatehouse/secrets";
import type { AssertionCatalog } from "../ports.ts";
import type { Transactional } from "../transactional.ts";
import type { UserRecord } from "../users/record.ts";
import type { UserStore } from "../users/store.ts";
import { recordAnswers, unknownKeys } from "./answers.ts";
import { catalogFor, typologiesOf } from "./catalog.ts";
import { parseAnswers } from "./parse.ts";
import { pendingAssertions } from "./pending.ts";
import type { AcceptanceStore, AnswerOrigin } from "./store.ts";
import { openTermsToken } from "./token.ts";
import type { EventStore } from "../events/store.ts";

export interface TermsDeps {
  data: Transactional<{ users: UserStore; acceptances: AcceptanceStore; events: EventStore }>;
  keys: KeyRing;
  catalog: AssertionCatalog;
}

/** Answers sent with a login, checked against the entry point's catalog. */
export interface LoginAnswers {
  answers: Map<string, boolean>;
  catalog: Map<string, PendingAssertion>;
}

/** Legal assertions: the answers sent with a login, and the hosted terms page of a 451 (the login's step is ./login-step.ts). */
export function createTerms(deps: TermsDeps) {
  return {
    /**
     * `object.assertions` of a login, read before the password is checked
     * (a malformed or unknown answer is the envelope's 400, like the
     * contract orders it); nothing is recorded yet.
     */
    async readLoginAnswers(ep: Entrypoint, raw: JsonObject | undefined): Promise<LoginAnswers | undefined> {
      if (!raw || !Object.keys(raw).length) return undefined;
      const { answers, violations } = parseAnswers(raw);
      const catalog = await catalogFor(deps.catalog, ep);
      const all = [...violations, ...unknownKeys(answers.keys(), catalog)];
      if (all.length) throw validationError(all);
      return { answers, catalog };
    },

    /**
     * Records the login's answers once the password is right, before MFA and
     * terms run (so a user who must also pass MFA does not lose them).
     */
    async recordLoginAnswers(
      user: UserRecord,
      sent: LoginAnswers | undefined,
      origin: Omit<AnswerOrigin, "via"> & Partial<AnswerOrigin>,
    ): Promise<void> {
      if (!sent) return;
      const stored = await recordAnswers(deps.data, user.id, sent.answers, sent.catalog, { via: "login", ...origin });
      if (stored) user.assertions = stored;
    },

    /** What the hosted page shows: the assertions the token's user still has to answer. */
    async pendingByToken(
      token: string,
      entrypointOf: (id: string) => Promise<Entrypoint | undefined>,
    ): Promise<PendingAssertion[]> {
      const target = openTermsToken(deps.keys, token);
      const ep = await entrypointOf(target.entrypointId);
      const user = await deps.data.users.byId(target.userId);
      if (!ep || !user) throw domainError("INVALID_CODE", "The terms link is not valid.");
      return pendingAssertions(user.assertions, await deps.catalog(typologiesOf(ep)));
    },

    /**
     * The hosted page's answers: each must name the latest version (the page
     * may be older than a new publication) and a mandatory assertion cannot
     * be declined there (the page would loop); either is a 416 and nothing is
     * recorded. Returns what is still pending.
     */
    async answerByToken(
      token: string,
      answers: { key: string; version: string; value: boolean }[],
      sourceId: string,
      entrypointOf: (id: string) => Promise<Entrypoint | undefined>,
    ): Promise<PendingAssertion[]> {
      const target = openTermsToken(deps.keys, token);
      const ep = await entrypointOf(target.entrypointId);
      if (!ep) throw domainError("INVALID_CODE", "The terms link is not valid.");
      const catalog = await catalogFor(deps.catalog, ep);
      const violations = answers.flatMap((a) => {
        const latest = catalog.get(a.key);
        if (!latest) return [{ field: `assertions.${a.key}`, code: "unknown_key" }];
        if (a.version !== latest.version) return [{ field: `assertions.${a.key}.version`, code: "invalid_value" }];
        if (latest.mandatory && !a.value) return [{ field: `assertions.${a.key}.value`, code: "required" }];
        return [];
      });
      if (violations.length) throw domainError("CONSTRAINT_VIOLATION", undefined, { violations });
      const wanted = new Map(answers.map((a) => [a.key, a.value]));
      const stored = await recordAnswers(deps.data, target.userId, wanted, catalog, {
        clientId: target.clientId,
        sourceId,
        via: "page",
      });
      if (!stored) throw domainError("INVALID_CODE", "The terms link is not valid.");
      return pendingAssertions(stored, catalog.values());
    },
  };
}

export type Terms = ReturnType<typeof createTerms>;
