import type { AuditContext } from "@gatehouse/admin";
import type { Db } from "@gatehouse/db";
import { domainError, validationError, type Violation } from "@gatehouse/errors";
import { auditStore } from "../audit/store.ts";
import type { ClientSecrets } from "./secrets.ts";
import { credentialStore } from "./store.ts";

export const OPERATOR_CLIENT_ID_PATTERN = /^[A-Za-z0-9._-]{3,64}$/;
export const MIN_OPERATOR_SECRET_LENGTH = 16;
const MAX_OPERATOR_SECRET_LENGTH = 256;
const MAX_DISPLAY_NAME = 200;
const DEFAULT_DISPLAY_NAME = "Operator";

export interface EnsureOperatorInput {
  clientId: string;
  /** Empty: keep the existing secret, or generate one for a new client. */
  clientSecret: string;
  displayName: string;
}

export interface EnsuredOperator {
  clientId: string;
  clientSecret: string;
  /** False when the client already existed with that secret (nothing was written). */
  created: boolean;
}

function operatorViolations(input: EnsureOperatorInput): Violation[] {
  const violations: Violation[] = [];
  if (!input.clientId) violations.push({ field: "clientId", code: "required" });
  else if (!OPERATOR_CLIENT_ID_PATTERN.test(input.clientId)) {
    violations.push({ field: "clientId", code: "invalid_format", description: "must match ^[A-Za-z0-9._-]{3,64}$" });
  }
  if (input.clientSecret && input.clientSecret.length < MIN_OPERATOR_SECRET_LENGTH) {
    violations.push({
      field: "clientSecret",
      code: "too_short",
      description: `at least ${MIN_OPERATOR_SECRET_LENGTH} characters`,
    });
  }
  if (input.clientSecret.length > MAX_OPERATOR_SECRET_LENGTH) {
    violations.push({
      field: "clientSecret",
      code: "too_long",
      description: `at most ${MAX_OPERATOR_SECRET_LENGTH} characters`,
    });
  }
  if (input.displayName.length > MAX_DISPLAY_NAME) violations.push({ field: "displayName", code: "too_long" });
  return violations;
}

/**
 * Idempotent upsert of an operator client (bootstrap environment and CLI):
 * creates it, leaves it alone when the secret is the same (or none is given),
 * and rotates the secret when a different one is given.
 */
export async function ensureOperatorClient(
  db: Db,
  secrets: ClientSecrets,
  input: EnsureOperatorInput,
  who?: AuditContext,
): Promise<EnsuredOperator> {
  const violations = operatorViolations(input);
  if (violations.length) throw validationError(violations);
  const { clientId } = input;
  const displayName = input.displayName.trim() || DEFAULT_DISPLAY_NAME;
  return db.tx(async (q) => {
    const store = credentialStore(q);
    const secret = input.clientSecret || secrets.generate();
    const stored = secrets.protect(clientId, secret);
    const record = (action: string) => (who ? auditStore(q).record({ ...who, action, target: clientId }) : undefined);
    if (await store.insertOperator({ clientId, displayName, secretSealed: stored.sealed, secretMac: stored.mac })) {
      await record("operator_client.create");
      return { clientId, clientSecret: secret, created: true };
    }
    // It exists (perhaps inserted concurrently; the insert waited for that commit).
    const existing = await store.findForUpdate(clientId);
    if (!existing) throw new Error(`operator client ${clientId} vanished during upsert`);
    if (existing.kind !== "operator")
      throw domainError("APPLICATION_ID_TAKEN", "that client_id belongs to an application");
    if (input.displayName.trim()) await store.setDisplayName(clientId, displayName);
    if (!input.clientSecret)
      return { clientId, clientSecret: secrets.reveal(clientId, existing.secretSealed), created: false };
    if (secrets.matches(clientId, input.clientSecret, existing.secretMac))
      return { clientId, clientSecret: secret, created: false };
    await store.rotate(clientId, stored.sealed, stored.mac);
    await record("operator_client.rotate");
    return { clientId, clientSecret: secret, created: true };
  });
}
