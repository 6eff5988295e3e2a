import { domainError, errorFacts } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";
import type { KeyRing } from "@gatehouse/secrets";
import type { AccessCodeOptions } from "../../access-code/options.ts";
import type { AccessCodeStore } from "../../access-code/store.ts";
import { confirmIdentifier } from "../../confirmation/confirm.ts";
import type { ConfirmationOptions } from "../../confirmation/options.ts";
import type { ConfirmationStore } from "../../confirmation/store.ts";
import type { Transactional } from "../../transactional.ts";
import type { UserStore } from "../../users/store.ts";
import { clearAccountAttempts, countLoginAttempt, type LoginLimits } from "../throttle.ts";
import type { CredentialVerifier } from "../verifier.ts";
import { useAccessCode } from "./sign-in-code.ts";
import { validationDataMatches } from "./validation-data.ts";
import type { EventStore } from "../../events/store.ts";

/** A one-time code typed instead of the password, with the `useForValidation` values (validation-data.ts). */
export interface OneTimeCodeProof {
  kind: "one-time-code";
  code: string;
  datas: Map<string, string>;
}

export interface OneTimeCodeDeps {
  data: Transactional<{
    users: UserStore;
    accessCodes: AccessCodeStore;
    confirmations: ConfirmationStore;
    events: EventStore;
  }>;
  kv: Kv;
  keys: KeyRing;
  /** The login throttles; a code meets only the address's (throttle.ts, LoginGuard): its own tries guard the account. */
  limits: LoginLimits;
  /** Tries of a sign-in code. */
  accessCodes: AccessCodeOptions;
  /** Tries of a confirmation code. */
  options: ConfirmationOptions;
}

/**
 * An unconfirmed identifier's confirmation code signs in too, confirming it
 * (how a passwordless registration signs in). A code that cannot match ("-")
 * still spends a try.
 */
async function confirmationCodeSignsIn(deps: OneTimeCodeDeps, userId: string, key: string, code: string) {
  try {
    await confirmIdentifier(deps, { userId, key, code });
    return true;
  } catch (err) {
    if (errorFacts(err).reason !== "INVALID_CODE") throw err;
    return false;
  }
}

/**
 * Code sign-in (contract section 8): the identifier typed and a one-time code
 * sent to it: a sign-in code (access-code/), which also confirms the
 * identifier it reached, or, for an unconfirmed identifier, its confirmation
 * code. Every guess spends a try, also when a `useForValidation` value is
 * missing or different, which fails like a wrong code. Unknown users: the
 * same statements and the same error. An account awaiting activation is
 * answered as it is, for its 412.
 */
export function oneTimeCodeVerifier(deps: OneTimeCodeDeps): CredentialVerifier<OneTimeCodeProof> {
  return {
    kind: "one-time-code",
    async verify(proof, attempt) {
      const { id, entrypoint } = attempt;
      if (!id || !entrypoint) throw domainError("INVALID_CREDENTIALS");
      await countLoginAttempt(deps.kv, deps.limits, id.value, attempt.clientAddress, "one-time-code");
      const user = await deps.data.users.byIdentifier(id.key, id.value);
      if (user?.awaitingActivation) return { user, secondFactor: false };
      const allowed = user ? validationDataMatches(entrypoint, user, proof.datas) : false;
      const identifier = user?.identifiers.find((i) => i.key === id.key);
      const guess = { userId: user?.id ?? "", key: id.key, code: proof.code, allowed };

      let ok = await useAccessCode(deps.data.accessCodes, deps, guess);
      if (ok && user && identifier && !identifier.confirmed) {
        // The code reached the value: that proves it as a confirmation would.
        await deps.data.tx(async ({ users, confirmations, events }) => {
          if (!(await users.confirmActive(user.id, id.key, identifier.value))) return;
          await confirmations.supersedeLive(user.id, id.key);
          await events.user("user.confirmed", null, user, [`ids.${id.key}`]);
        });
      } else if (!ok && user && identifier && !identifier.confirmed) {
        ok = await confirmationCodeSignsIn(deps, user.id, id.key, allowed ? proof.code : "-");
      }
      if (!user || !ok) throw domainError("INVALID_CREDENTIALS");
      await clearAccountAttempts(deps.kv, id.value, attempt.clientAddress);
      return { user: (await deps.data.users.byId(user.id)) ?? user, secondFactor: false };
    },
  };
}
