import type { AuditContext, AuditLog } from "@gatehouse/admin";
import { domainError, validationError, type Violation } from "@gatehouse/errors";
import type { KeyRing } from "@gatehouse/secrets";
import { storeActivation } from "../activation/issue.ts";
import type { ActivationStore } from "../activation/store.ts";
import type { Passwords } from "../credentials/passwords.ts";
import { passwordProblem } from "../credentials/policy.ts";
import type { Transactional } from "../transactional.ts";
import { canonicalEmail, isEmail, newPulseId, newUserId } from "../users/identifiers.ts";
import { isUniqueViolation, type UserStore } from "../users/store.ts";

export interface CreateOperatorDeps {
  data: Transactional<{ users: UserStore; activations: ActivationStore; audit: AuditLog }>;
  keys: KeyRing;
  passwords: Passwords;
}

export interface NewOperator {
  email: string;
  /** Empty: the account awaits activation, and the answer carries the link's token. */
  password: string;
  clientId: string;
  entrypointId: string;
  /** An operator with this email already there is a success (bootstrap at every start). */
  ifAbsent: boolean;
}

export interface CreatedOperator {
  userId: string;
  created: boolean;
  activation?: { token: string; expiresAt: Date };
}

function violationsOf(req: NewOperator, email: string): Violation[] {
  const out: Violation[] = [];
  if (!req.email) out.push({ field: "email", code: "required" });
  else if (!isEmail(email)) out.push({ field: "email", code: "invalid_format" });
  const weak = req.password ? passwordProblem(req.password, { emails: [email] }) : undefined;
  if (weak) out.push({ field: "password", code: weak });
  if (!req.clientId) out.push({ field: "clientId", code: "required" });
  if (!req.entrypointId) out.push({ field: "entrypointId", code: "required" });
  return out;
}

/** The operator of that email when `ifAbsent` allows it, else IDENTIFIER_TAKEN. */
async function existing(users: UserStore, email: string, ifAbsent: boolean): Promise<CreatedOperator | undefined> {
  const holder = await users.byIdentifier("email", email);
  if (!holder) return undefined;
  if (ifAbsent && holder.operator) return { userId: holder.id, created: false };
  throw domainError(
    "IDENTIFIER_TAKEN",
    holder.operator
      ? "an operator with this email already exists"
      : "this email belongs to a user who is not an operator",
  );
}

/**
 * An operator person (contract section 6): a user with the operator role,
 * registered through the console's entry point, the email as its only
 * identifier. With a password (BOOTSTRAP_OPERATOR_PASSWORD) the email is
 * confirmed and the account ready; without one (create-operator) it awaits
 * its one-time activation link, which sets the password and confirms the
 * email. Either way TOTP is enrolled at the first sign-in. Audited in the
 * same transaction; of concurrent creations of one email one wins (the
 * identifier is unique) and, with `ifAbsent`, the others find it.
 */
export async function createOperator(
  deps: CreateOperatorDeps,
  req: NewOperator,
  who: AuditContext,
): Promise<CreatedOperator> {
  const email = canonicalEmail(req.email);
  const violations = violationsOf(req, email);
  if (violations.length) throw validationError(violations);
  const found = await existing(deps.data.users, email, req.ifAbsent);
  if (found) return found;
  // Hash before the transaction: argon2 must not hold a database connection.
  const passwordHash = req.password ? await deps.passwords.hash(req.password) : null;
  const id = newUserId();
  try {
    return await deps.data.tx(async ({ users, activations, audit }) => {
      await users.insertUser({
        id,
        pulseId: newPulseId(),
        passwordHash,
        datas: {},
        addresses: {},
        assertions: {},
        clientId: req.clientId,
        entrypointId: req.entrypointId,
        awaitingActivation: !passwordHash,
        operator: true,
      });
      await users.insertIdentifier(id, "email", email, passwordHash !== null);
      const activation = passwordHash
        ? undefined
        : await storeActivation(activations, deps.keys, {
            userId: id,
            key: "email",
            value: email,
            clientId: req.clientId,
            entrypointId: req.entrypointId,
          });
      await audit.record({
        ...who,
        action: "operator.create",
        target: id,
        details: { activation: activation !== undefined },
      });
      return {
        userId: id,
        created: true,
        ...(activation ? { activation: { token: activation.token, expiresAt: activation.expiresAt } } : {}),
      };
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Created meanwhile (another replica's bootstrap, or a registration).
    const raced = await existing(deps.data.users, email, req.ifAbsent);
    if (raced) return raced;
    throw err;
  }
}
