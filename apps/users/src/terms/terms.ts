import type { JsonObject } from "@bufbuild/protobuf";
import type { Db } from "@gatehouse/db";
import { domainError, validationError } from "@gatehouse/errors";
import type { Entrypoint } from "@gatehouse/proto";
import type { KeyRing } from "@gatehouse/secrets";
import type { LoginStep } from "../login/steps.ts";
import { userStore, type UserRecord } from "../users/store.ts";
import { recordAnswers, unknownKeys, type AnswerOrigin } from "./answers.ts";
import { catalogFor, typologiesOf, type AssertionCatalog, type CatalogAssertion } from "./catalog.ts";
import { parseAnswers } from "./parse.ts";
import { blocksLogin, pendingAssertions } from "./pending.ts";
import { openTermsToken, sealTermsToken } from "./token.ts";

export interface TermsDeps {
  db: Db;
  keys: KeyRing;
  catalog: AssertionCatalog;
}

/** Answers sent with a login, checked against the entry point's catalog. */
export interface LoginAnswers {
  answers: Map<string, boolean>;
  catalog: Map<string, CatalogAssertion>;
}

/** A pending assertion as the 451 metadata and the hosted page carry it. */
export const pendingJson = (a: CatalogAssertion) => ({
  key: a.key,
  version: a.version,
  displayName: a.displayName,
  type: a.type,
  typology: a.typology,
  property: a.property,
  mandatory: a.mandatory,
});

/** Legal assertions at login (451), at the hosted terms page, and the answers sent with a login. */
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
    async recordLoginAnswers(user: UserRecord, sent: LoginAnswers | undefined, origin: Omit<AnswerOrigin, "via">): Promise<void> {
      if (!sent) return;
      const stored = await recordAnswers(deps.db, user.id, sent.answers, sent.catalog, { ...origin, via: "login" });
      if (stored) user.assertions = stored;
    },

    /**
     * The terms step of the login (contract section 5: after MFA, last): the
     * mandatory assertions of the entry point's typologies whose latest
     * version the user has not accepted stop the login with 451. The error
     * carries every pending assertion (optional ones too, to answer at once)
     * as JSON and the sealed token of the hosted terms page.
     */
    step(): LoginStep {
      return async (ctx) => {
        const pending = pendingAssertions(ctx.user.assertions, await deps.catalog(typologiesOf(ctx.entrypoint)));
        if (!blocksLogin(pending)) return;
        const token = sealTermsToken(deps.keys, { userId: ctx.user.id, clientId: ctx.clientId, entrypointId: ctx.entrypoint.id });
        throw domainError("TERMS_NOT_ACCEPTED", undefined, {
          metadata: { user_id: ctx.user.id, terms_token: token, assertions: JSON.stringify(pending.map(pendingJson)) },
        });
      };
    },

    /** What the hosted page shows: the assertions the token's user still has to answer. */
    async pendingByToken(token: string, entrypointOf: (id: string) => Promise<Entrypoint | undefined>): Promise<CatalogAssertion[]> {
      const target = openTermsToken(deps.keys, token);
      const ep = await entrypointOf(target.entrypointId);
      const user = await userStore(deps.db).byId(target.userId);
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
    ): Promise<CatalogAssertion[]> {
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
      const stored = await recordAnswers(deps.db, target.userId, wanted, catalog, { clientId: target.clientId, sourceId, via: "page" });
      if (!stored) throw domainError("INVALID_CODE", "The terms link is not valid.");
      return pendingAssertions(stored, catalog.values());
    },
  };
}

export type Terms = ReturnType<typeof createTerms>;
