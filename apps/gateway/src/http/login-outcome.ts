import type { LoginOutcome } from "@gatehouse/proto";

// A login ends in one LoginOutcome (UsersService.LoginUser, ContinueLogin,
// MfaService.CompleteMfaLogin). Two tables render it, each typed over every
// case: the JSON answer (routes/activityid/login-outcomes.ts) and the hosted
// login's page (hosted/authorize/outcome-pages.ts). A new case of LoginOutcome
// does not typecheck until both render it.

/** One case of a login's outcome, with its value. */
export type OutcomeCase = Exclude<LoginOutcome["outcome"], { case: undefined }>;

type ValueOf<K extends OutcomeCase["case"]> = Extract<OutcomeCase, { case: K }>["value"];

/** A rendering of every case of LoginOutcome for a view (a JSON reply, a hosted page). */
export type OutcomeTable<View, Answer> = { [K in OutcomeCase["case"]]: (view: View, value: ValueOf<K>) => Answer };

/** A case one side never asks for (JSON routes send no authorization request; the hosted login always does). */
export const notAsked = (what: string) => (): never => {
  throw new Error(`the login answered ${what}, which this caller did not ask for`);
};

/** An outcome rendered by its table; one without a case is the service's bug. */
export function renderOutcome<View, Answer>(
  table: OutcomeTable<View, Answer>,
  view: View,
  outcome: LoginOutcome | undefined,
): Answer {
  const o = outcome?.outcome;
  if (!o?.case) throw new Error("the login answered no outcome");
  return (table[o.case] as (view: View, value: OutcomeCase["value"]) => Answer)(view, o.value);
}
