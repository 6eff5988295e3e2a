import type { Db } from "@gatehouse/db";
import { domainError, validationError } from "@gatehouse/errors";
import type { KeyRing } from "@gatehouse/secrets";
import { passwordPolicy, type Passwords } from "../credentials/passwords.ts";
import type { EntrypointDirectory } from "../ports.ts";
import { userStore, type UserRecord } from "../users/store.ts";
import { ACTIVATION_MAC } from "./issue.ts";

export interface ActivateDeps {
  db: Db;
  keys: KeyRing;
  passwords: Passwords;
  entrypoints: EntrypointDirectory;
}

/** A live activation link: whom it activates, through which entry point. */
export interface Activation {
  id: string;
  userId: string;
  key: "email" | "phone_number";
  value: string;
  clientId: string;
  entrypointId: string;
  /** The entry point asks for no password: activating only confirms the identifier. */
  passwordless: boolean;
}

const invalid = () => domainError("INVALID_CODE", "The activation link is not valid, was used or has expired.");

interface ActivationRow {
  id: string;
  user_id: string;
  key: "email" | "phone_number";
  value: string;
  client_id: string;
  entrypoint_id: string;
}

/** The live activation of a link token; INVALID_CODE when unknown, used, superseded or expired. */
export async function readActivation(deps: ActivateDeps, token: string): Promise<Activation> {
  if (!token || token.length > 200) throw invalid();
  const r = await deps.db.query<ActivationRow>(
    `SELECT id, user_id, key, value, client_id, entrypoint_id FROM users.activations
      WHERE token_hash = $1 AND used_at IS NULL AND superseded_at IS NULL AND expires_at > now()`,
    [deps.keys.mac(ACTIVATION_MAC)(token)],
  );
  const row = r.rows[0];
  if (!row) throw invalid();
  const entrypoint = await deps.entrypoints(row.entrypoint_id).catch(() => undefined);
  return {
    id: row.id,
    userId: row.user_id,
    key: row.key,
    value: row.value,
    clientId: row.client_id,
    entrypointId: row.entrypoint_id,
    passwordless: entrypoint?.entrypoint.passwordless ?? false,
  };
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
    const problem = req.password ? passwordPolicy(req.password) : "required";
    if (problem) throw validationError([{ field: "password", code: problem }]);
  }
  // Hash before the transaction: argon2 must not hold a database connection.
  const passwordHash = activation.passwordless ? undefined : await deps.passwords.hash(req.password);
  const user = await deps.db.tx(async (q) => {
    const store = userStore(q);
    if (!(await store.lock(activation.userId))) throw invalid();
    const used = await q.query(
      `UPDATE users.activations SET used_at = now() WHERE id = $1 AND used_at IS NULL AND superseded_at IS NULL RETURNING id`,
      [activation.id],
    );
    if (used.rowCount === 0) throw invalid();
    await q.query(
      `UPDATE users.activations SET superseded_at = now() WHERE user_id = $1 AND used_at IS NULL AND superseded_at IS NULL`,
      [activation.userId],
    );
    // The identifier changed since the link was sent: the link activates nothing.
    if (!(await store.confirmActive(activation.userId, activation.key, activation.value))) throw invalid();
    await store.supersedeConfirmations(activation.userId, activation.key);
    await q.query(`UPDATE users.users SET awaiting_activation = false WHERE id = $1`, [activation.userId]);
    await store.saveProfile(activation.userId, { passwordHash });
    return store.byId(activation.userId);
  });
  if (!user) throw invalid();
  return { user, activation };
}
