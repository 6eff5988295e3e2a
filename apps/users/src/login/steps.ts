import type { JsonObject } from "@bufbuild/protobuf";
import type { Caller, Entrypoint } from "@gatehouse/proto";
import type { UserRecord } from "../users/store.ts";

/**
 * What the policy steps of a login see once the password is right and the
 * main identifier is confirmed (contract section 5: then MFA, 428, then
 * terms, 451, then the session). A step throws the coded error that
 * interrupts the login, or returns to let the next one run.
 */
export interface LoginContext {
  user: UserRecord;
  entrypoint: Entrypoint;
  clientId: string;
  caller: Caller | undefined;
  /** `object.assertions` sent with the login (acceptance of terms), if any. */
  assertions: JsonObject | undefined;
  /** True when this login already passed its MFA step (finishing a 428). */
  mfaPassed: boolean;
  /** The login asked for the complete-account check (206); kept across a 428. */
  fca?: boolean;
}

export type LoginStep = (ctx: LoginContext) => Promise<void>;

/** Runs the steps in order; the first interruption ends the login. */
export async function runLoginSteps(steps: readonly LoginStep[], ctx: LoginContext): Promise<void> {
  for (const step of steps) await step(ctx);
}
