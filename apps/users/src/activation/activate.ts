import { domainError, validationError } from "@gatehouse/errors";
import type { KeyRing } from "@gatehouse/secrets";
import type { Passwords } from "../credentials/passwords.ts";
import { contextOf, isBreached, passwordProblem, type BreachDeps } from "../credentials/policy.ts";
import type { EntrypointDirectory } from "../ports.ts";
import type { Transactional } from "../transactional.ts";
import type { IdKey } from "../users/identifiers.ts";
import type { UserRecord } from "../users/record.ts";
import type { UserStore } from "../users/store.ts";
import { ACTIVATION_MAC } from "./issue.ts";
import type { ActivationRow, ActivationStore } from "./store.ts";
import type { EventStore } from "../events/store.ts";

/** The confirmation codes of the identifier a link confirms stop working (ConfirmationStore's; named here so activation needs no import of confirmation, which resends activation links). */
interface LiveConfirmations {
  supersedeLive(userId: string, key: IdKey): Promise<void>;
}

export interface ActivateDeps extends BreachDeps {
  data: Transactional<{
    users: UserStore;
    activations: ActivationStore;
    confirmations: LiveConfirmations;
    events: EventStore;
  }>;
  keys: KeyRing;
  passwords: Passwords;
  entrypoints: EntrypointDirectory;
}

/** A live activation link: whom it activates, through which entry point. */
export interface Activation extends ActivationRow {
  /** The entry point asks for no password: activating only confirms the identifier. */
  passwordless: boolean;
}

const invalid = () => domainError("INVALID_CODE", "The activation link is not valid, was used or has expired.");

/** The live activation of a link token; INVALID_CODE when unknown, used, superseded or expired. */
export async function readActivation(deps: ActivateDeps, token: string): Promise<Activation> {
  if (!token || token.length > 200) throw invalid();
  const row = await deps.data.activations.liveByTokenHash(deps.keys.mac(ACTIVATION_MAC)(token));
  if (!row) throw invalid();
  const entrypoint = await deps.entrypoints(row.entrypointId).catch(() => undefined);
  return { ...row, passwordless: entrypoint?.entrypoint.passwordless ?? false };
}

/**
 * Activates an assisted registration (contract section 8): the password is
 * set (unless the entry point is passwordless), the identifier the link was
 * sent to is confirmed, and the account leaves "awaiting activation"; the
 * link and its siblings stop working. One use: of parallel requests one wins.
 */
export async function activateUser(
  deps: ActivateDeps,
  req: { token: string; password: string },
): Promise<{ user: UserRecord; activation: Activation }> {
  const activation = await readActivation(deps, req.token);
  if (activation.passwordless) {
    if (req.password) throw validationError([{ field: "password", code: "not_allowed" }]);
  } else {
    if (!req.password) throw validationError([{ field: "password", code: "required" }]);
    const holder = await deps.data.users.byId(activation.userId);
    const context = holder ? contextOf(holder) : { emails: [activation.value], phones: [activation.value] };
    const problem =
      passwordProblem(req.password, context) ?? ((await isBreached(deps, req.password)) ? "password_weak" : undefined);
    if (problem) throw validationError([{ field: "password", code: problem }]);
  }
  // Hash before the transaction: argon2 must not hold a database connection.
  const passwordHash = activation.passwordless ? undefined : await deps.passwords.hash(req.password);
  const user = await deps.data.tx(async ({ users, activations, confirmations, events }) => {
    if (!(await users.lock(activation.userId))) throw invalid();
    if (!(await activations.use(activation.id))) throw invalid();
    await activations.supersedeAll(activation.userId);
    // The identifier changed since the link was sent: the link activates nothing.
    if (!(await users.confirmActive(activation.userId, activation.key, activation.value))) throw invalid();
    await confirmations.supersedeLive(activation.userId, activation.key);
    await users.markActivated(activation.userId);
    await users.saveProfile(activation.userId, { passwordHash });
    const activated = await users.byId(activation.userId);
    if (activated) await events.user("user.confirmed", activation.clientId, activated, [`ids.${activation.key}`]);
    return activated;
  });
  if (!user) throw invalid();
  return { user, activation };
}
