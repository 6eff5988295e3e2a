import type { JsonObject } from "@bufbuild/protobuf";
import { allowedByPrefixes } from "@gatehouse/abuse";
import { userEvent } from "@gatehouse/events";
import { domainError, errorFacts, validationError } from "@gatehouse/errors";
import type { DeliveryLocale } from "@gatehouse/jobs";
import type { Entrypoint } from "@gatehouse/proto";
import type { IssueDeps } from "../confirmation/issue.ts";
import type { Passwords } from "../credentials/passwords.ts";
import { contextOf, isBreached, passwordProblem, type BreachDeps } from "../credentials/policy.ts";
import type { AssertionCatalog, DataFieldCatalog } from "../ports.ts";
import { catalogFor } from "../terms/catalog.ts";
import type { AcceptanceStore } from "../terms/store.ts";
import type { Transactional } from "../transactional.ts";
import { sortOutsideKeys } from "../users/outside-keys.ts";
import type { IdKey } from "../users/identifiers.ts";
import type { UserRecord } from "../users/record.ts";
import type { PasswordProof } from "../verifiers/password/verifier.ts";
import type { TotpProof } from "../verifiers/totp/verifier.ts";
import type { CredentialVerifier } from "../verifiers/verifier.ts";
import { applyIdOp, constraintViolation, takenValues, type ApplyStores } from "./apply.ts";
import { parseUpdate, type UpdateInput, type UpdateMode } from "./parse.ts";
import { planUpdate } from "./plan.ts";
import { requireStepUp } from "./step-up.ts";
import type { EventStore } from "../events/store.ts";
import { changedFields } from "./changed.ts";

export interface UpdateDeps extends IssueDeps, BreachDeps {
  data: Transactional<ApplyStores & { acceptances: AcceptanceStore; events: EventStore }>;
  /** Hashes a new password. */
  passwords: Passwords;
  /** Re-authentication by the current password; step-up by a second factor. */
  verifiers: { password: CredentialVerifier<PasswordProof>; totp: CredentialVerifier<TotpProof> };
  /** The legal-assertion catalog: answers record its latest versions. */
  catalog: AssertionCatalog;
  /** Tells a data key of no catalog (`unknown_key`) from another form's field (`not_in_entrypoint`). */
  dataFields?: DataFieldCatalog;
}

export interface UpdateRequest {
  mode: UpdateMode;
  entrypoint: Entrypoint;
  clientId: string;
  /** The application's context.url whitelist (exact strings). */
  whitelist: string[];
  /** The user of the access token. */
  actorUserId: string;
  target: { userId: string } | { pulseId: string };
  object: JsonObject | undefined;
  contextUrl: string;
  /** A CHALLENGE_CODE_TOKEN with a matching code_verifier stands in for the password. */
  reauthenticatedByChallenge: boolean;
  locale: DeliveryLocale;
  clientAddress: string;
  /** source.id of the envelope (recorded with answers to legal assertions). */
  sourceId: string;
  /** The application's allowed calling codes (section 17); empty or absent = any. */
  phonePrefixes?: string[];
}

export interface Updated {
  user: UserRecord;
  changed: boolean;
  pending: string[];
}

/** The current password, checked like a login's (the password verifier); a user without one has nothing to re-enter. */
async function reauthenticate(deps: UpdateDeps, req: UpdateRequest, user: UserRecord, password: string | undefined) {
  if (req.reauthenticatedByChallenge || user.passwordHash === null) return;
  if (password === undefined || password === "")
    throw validationError([{ field: "object.password", code: "required" }]);
  await deps.verifiers.password.verify({ kind: "password", password }, { user, clientAddress: req.clientAddress });
}

/** The password policy's rules that need the user: their identifiers (current and sent), then breaches. */
async function newPasswordViolations(deps: UpdateDeps, user: UserRecord, input: UpdateInput) {
  const password = input.newPassword;
  if (password === undefined) return [];
  const sent = (key: IdKey) => input.ids?.get(key) ?? undefined;
  const context = contextOf(user, { emails: [sent("email")], phones: [sent("phone_number")] });
  const weak = passwordProblem(password, context) ?? ((await isBreached(deps, password)) ? "password_weak" : undefined);
  return weak ? [{ field: "object.newPassword", code: weak }] : [];
}

/**
 * Replace or patch a user (spec endpoints 2 and 3): find the target (404),
 * only its own user may change it (403), re-authentication (403), the
 * entry point's rules (416), then one transaction with the row locked that
 * applies the plan and queues the codes of identifiers that must be
 * confirmed (a queue failure rolls everything back: 502).
 */
export async function updateUser(deps: UpdateDeps, req: UpdateRequest): Promise<Updated> {
  const parsed = parseUpdate(req.entrypoint, req.object, req.mode);
  if (parsed.malformed.length) throw validationError(parsed.malformed);

  const { users } = deps.data;
  const found =
    "userId" in req.target ? await users.byId(req.target.userId) : await users.byPulseId(req.target.pulseId);
  if (!found) throw domainError("USER_NOT_FOUND");
  if (found.id !== req.actorUserId) throw domainError("PERMISSION_DENIED", "The token's user is not the target user.");
  await reauthenticate(deps, req, found, parsed.input.password);
  if (!parsed.constraints.some((v) => v.field === "object.newPassword"))
    parsed.constraints.push(...(await newPasswordViolations(deps, found, parsed.input)));
  const phone = parsed.input.ids?.get("phone_number");
  if (phone && !allowedByPrefixes(phone, req.phonePrefixes ?? []))
    parsed.constraints.push({ field: "object.ids.phone_number.value", code: "invalid_value" });
  if (parsed.constraints.length) throw constraintViolation(await sortOutsideKeys(parsed.constraints, deps.dataFields));
  // MFA step-up (428) for changes of email, phone or password.
  const change = { ep: req.entrypoint, user: found, input: parsed.input, mode: req.mode };
  await requireStepUp(deps.verifiers.totp, { ...change, clientAddress: req.clientAddress });
  // Hash before the transaction: argon2 must not hold a database connection.
  const passwordHash =
    parsed.input.newPassword === undefined ? undefined : await deps.passwords.hash(parsed.input.newPassword);
  const catalog = parsed.input.assertions ? await catalogFor(deps.catalog, req.entrypoint) : new Map();
  const origin = {
    clientId: req.clientId,
    entrypointId: req.entrypoint.id,
    contextUrl: req.contextUrl && req.whitelist.includes(req.contextUrl) ? req.contextUrl : undefined,
    locale: req.locale,
  };

  const applied = deps.data.tx(async (s) => {
    const user = await s.users.byId(found.id, true);
    if (!user) throw domainError("USER_NOT_FOUND");
    const now = new Date();
    const plan = planUpdate(req.entrypoint, user, parsed.input, req.mode, now, catalog);
    const violations = [...plan.violations, ...(await takenValues(s.users, user.id, plan.ids))];
    if (violations.length) throw constraintViolation(violations);
    if (!plan.changed) return { user, changed: false, pending: [] };

    const changed = changedFields(user, plan);
    const events = [
      ...(changed.length ? [userEvent("user.updated", req.clientId, user, changed)] : []),
      ...(passwordHash !== undefined ? [userEvent("user.password_changed", req.clientId, user)] : []),
    ];
    for (const op of plan.ids) await applyIdOp(s, deps, origin, user.id, op);
    const answerOrigin = { clientId: req.clientId, sourceId: req.sourceId, via: "update" as const };
    await s.acceptances.append(user.id, plan.answers, answerOrigin, now);
    // The row, its events and the user as read after: one statement (the row is locked, so it is there).
    const saved = await s.events.saveProfile(
      user.id,
      { datas: plan.datas, addresses: plan.addresses, assertions: plan.assertions, passwordHash },
      events,
    );
    return { user: saved!, changed: true, pending: plan.pending };
  });
  // The spec's patch answers 502 when a confirmation cannot be sent: so too when the SMS limits refuse it.
  return applied.catch((err: unknown) => {
    if (errorFacts(err).reason !== "SMS_LIMIT") throw err;
    throw domainError("CONFIRMATION_NOT_QUEUED", "the SMS limits refused the confirmation code", {
      metadata: { key: "phone_number", limit: errorFacts(err).metadata.limit ?? "" },
      violations: [{ field: "object.ids.phone_number.value", code: "sms_limit" }],
    });
  });
}
