import type { JsonObject } from "@bufbuild/protobuf";
import type { Db, Queryable } from "@gatehouse/db";
import { domainError, validationError } from "@gatehouse/errors";
import type { DeliveryLocale } from "@gatehouse/jobs";
import type { Kv } from "@gatehouse/kv";
import type { Entrypoint } from "@gatehouse/proto";
import { issueConfirmation, type IssueDeps } from "../confirmation/issue.ts";
import type { Passwords } from "../credentials/passwords.ts";
import { clearAccountAttempts, countLoginAttempt, type LoginLimits } from "../verifiers/throttle.ts";
import { insertAcceptances } from "../terms/answers.ts";
import type { AssertionCatalog, DataFieldCatalog } from "../ports.ts";
import { sortOutsideKeys } from "../users/outside-keys.ts";
import { catalogFor } from "../terms/catalog.ts";
import { IDENTIFIER_UNIQUE, isUniqueViolation, userStore, type UserRecord } from "../users/store.ts";
import { DEFAULT_MFA_LIMITS, type MfaLimits } from "../verifiers/totp/factor.ts";
import { requireStepUp } from "./step-up.ts";
import { parseUpdate, type UpdateMode } from "./parse.ts";
import { planUpdate, type IdOp, type UpdatePlan } from "./plan.ts";

export interface UpdateDeps extends IssueDeps {
  db: Db;
  kv: Kv;
  passwords: Passwords;
  limits: LoginLimits;
  /** The legal-assertion catalog: answers record its latest versions. */
  catalog: AssertionCatalog;
  /** Tells a data key of no catalog (`unknown_key`) from another form's field (`not_in_entrypoint`). */
  dataFields?: DataFieldCatalog;
  mfaLimits?: MfaLimits;
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
}

export interface Updated {
  user: UserRecord;
  changed: boolean;
  pending: string[];
}

const constraintViolation = (violations: UpdatePlan["violations"]) =>
  domainError("CONSTRAINT_VIOLATION", undefined, { violations });

/** Checks the current password like a login does: throttled per account and address, same cost for everyone. */
async function reauthenticate(
  deps: UpdateDeps,
  req: UpdateRequest,
  user: UserRecord,
  password: string | undefined,
): Promise<void> {
  if (req.reauthenticatedByChallenge || user.passwordHash === null) return;
  if (password === undefined || password === "")
    throw validationError([{ field: "object.password", code: "required" }]);
  const account = user.identifiers.find((i) => i.key === "email")?.value ?? `id:${user.id}`;
  await countLoginAttempt(deps.kv, deps.limits, account, req.clientAddress);
  if (!(await deps.passwords.verify(user.passwordHash, password))) throw domainError("INVALID_CREDENTIALS");
  await clearAccountAttempts(deps.kv, account, req.clientAddress);
}

/** Another user holding a wanted value is a 416 on that field (checked again by the unique constraint). */
async function takenValues(q: Queryable, userId: string, ops: IdOp[]) {
  const store = userStore(q);
  const taken = [];
  for (const op of ops) {
    if (op.kind === "delete" || op.kind === "unpend") continue;
    const holder = await store.holderOf(op.key, op.value);
    if (holder && holder !== userId) taken.push({ field: `object.ids.${op.key}.value`, code: "duplicate" });
  }
  return taken;
}

async function applyIdOp(q: Queryable, deps: UpdateDeps, req: UpdateRequest, userId: string, op: IdOp): Promise<void> {
  const store = userStore(q);
  if (op.kind === "delete" || op.kind === "unpend") {
    if (op.kind === "delete") await store.deleteIdentifier(userId, op.key);
    else await store.setPending(userId, op.key, null);
    await store.supersedeConfirmations(userId, op.key);
    return;
  }
  try {
    if (op.kind === "insert") await store.insertIdentifier(userId, op.key, op.value, false);
    else if (op.kind === "replace") await store.replaceIdentifier(userId, op.key, op.value);
    else await store.setPending(userId, op.key, op.value);
  } catch (err) {
    if (!isUniqueViolation(err, IDENTIFIER_UNIQUE)) throw err;
    throw constraintViolation([{ field: `object.ids.${op.key}.value`, code: "duplicate" }]);
  }
  if (op.kind !== "pend") await store.supersedeConfirmations(userId, op.key);
  if (!op.sendCode) return;
  await issueConfirmation(q, deps, {
    userId,
    key: op.key as "email" | "phone_number",
    value: op.value,
    purpose: op.kind === "insert" ? "register" : "change",
    locale: req.locale,
    clientId: req.clientId,
    entrypointId: req.entrypoint.id,
    // Only a whitelisted context.url is kept; otherwise the link lands on the default callback.
    contextUrl: req.contextUrl && req.whitelist.includes(req.contextUrl) ? req.contextUrl : undefined,
  });
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

  const store = userStore(deps.db);
  const found =
    "userId" in req.target ? await store.byId(req.target.userId) : await store.byPulseId(req.target.pulseId);
  if (!found) throw domainError("USER_NOT_FOUND");
  if (found.id !== req.actorUserId) throw domainError("PERMISSION_DENIED", "The token's user is not the target user.");
  await reauthenticate(deps, req, found, parsed.input.password);
  if (parsed.constraints.length) throw constraintViolation(await sortOutsideKeys(parsed.constraints, deps.dataFields));
  // MFA step-up (428) for changes of email, phone or password.
  await requireStepUp(
    { ...deps, limits: deps.mfaLimits ?? DEFAULT_MFA_LIMITS },
    req.entrypoint,
    found,
    parsed.input,
    req.mode,
  );
  // Hash before the transaction: argon2 must not hold a database connection.
  const passwordHash =
    parsed.input.newPassword === undefined ? undefined : await deps.passwords.hash(parsed.input.newPassword);
  const catalog = parsed.input.assertions ? await catalogFor(deps.catalog, req.entrypoint) : new Map();

  return deps.db.tx(async (q) => {
    const locked = userStore(q);
    const user = await locked.byId(found.id, true);
    if (!user) throw domainError("USER_NOT_FOUND");
    const now = new Date();
    const plan = planUpdate(req.entrypoint, user, parsed.input, req.mode, now, catalog);
    const violations = [...plan.violations, ...(await takenValues(q, user.id, plan.ids))];
    if (violations.length) throw constraintViolation(violations);
    if (!plan.changed) return { user, changed: false, pending: [] };

    for (const op of plan.ids) await applyIdOp(q, deps, req, user.id, op);
    await insertAcceptances(
      q,
      user.id,
      plan.answers,
      { clientId: req.clientId, sourceId: req.sourceId, via: "update" },
      now,
    );
    await locked.saveProfile(user.id, {
      datas: plan.datas,
      addresses: plan.addresses,
      assertions: plan.assertions,
      passwordHash,
    });
    return { user: (await locked.byId(user.id))!, changed: true, pending: plan.pending };
  });
}
