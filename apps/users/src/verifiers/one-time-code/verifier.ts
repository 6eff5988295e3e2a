import type { JsonObject } from "@bufbuild/protobuf";
import type { Db } from "@gatehouse/db";
import { domainError, errorFacts, validationError } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";
import type { Entrypoint } from "@gatehouse/proto";
import { constantTimeEqual, type KeyRing } from "@gatehouse/secrets";
import { confirmIdentifier } from "../../confirmation/confirm.ts";
import type { ConfirmationOptions } from "../../confirmation/options.ts";
import type { LoginIdentifier } from "../password/verifier.ts";
import { clearAccountAttempts, countLoginAttempt, type LoginLimits } from "../throttle.ts";
import { isBlank, newCtx, nodeValue } from "../../users/fields.ts";
import { userStore, type UserRecord } from "../../users/store.ts";
import type { AccessCodeOptions } from "../../access-code/options.ts";
import { useAccessCode } from "../../access-code/store.ts";

export interface CodeSignInDeps {
  db: Db;
  kv: Kv;
  keys: KeyRing;
  limits: LoginLimits;
  accessCodes: AccessCodeOptions;
  options: ConfirmationOptions;
}

/** The entry point's `useForValidation` data fields: code sign-in must repeat their values. */
export const validationFields = (ep: Entrypoint) =>
  ep.fields.filter((f) => f.type === "field" && f.useForValidation).map((f) => f.key);

/**
 * `object.datas` of a code sign-in, read before anything is checked: only
 * the entry point's `useForValidation` fields, as `{objectType: "data",
 * value}` nodes (a malformed one is the envelope's 400). Missing values are
 * not an error here: they fail like a wrong code.
 */
export function readValidationData(ep: Entrypoint, raw: JsonObject | undefined): Map<string, string> {
  const wanted = new Set(validationFields(ep));
  const ctx = newCtx();
  const out = new Map<string, string>();
  for (const [key, node] of Object.entries(raw ?? {})) {
    if (!wanted.has(key)) {
      const fields = [...wanted].join(", ") || "it has none";
      ctx.violations.push({
        field: `object.datas.${key}`,
        code: "not_allowed",
        description: `only this entry point's useForValidation fields go with a code (${fields})`,
      });
      continue;
    }
    const value = nodeValue(ctx, `object.datas.${key}`, node, "data");
    if (value !== undefined && typeof value !== "string") ctx.add(`object.datas.${key}.value`, "invalid_type");
    else if (!isBlank(value)) out.set(key, value as string);
  }
  if (ctx.violations.length) throw validationError(ctx.violations);
  return out;
}

/** Trimmed, Unicode-normalized and case-folded: "Ana " and "ana" are the same name. */
const comparable = (v: unknown) => (typeof v === "string" ? v.trim().normalize("NFC").toLocaleLowerCase("und") : "");

/** Every `useForValidation` value sent equals the user's (compared in constant time); a missing one never matches. */
function validationDataMatches(ep: Entrypoint, user: UserRecord, sent: Map<string, string>): boolean {
  let ok = true;
  for (const key of validationFields(ep)) {
    const stored = comparable(user.datas[key]);
    const given = comparable(sent.get(key));
    // No short-circuit: every field costs its comparison.
    ok = constantTimeEqual(given, stored) && stored !== "" && ok;
  }
  return ok;
}

/**
 * An unconfirmed identifier's confirmation code signs in too, confirming it
 * (how a passwordless registration signs in). A code that cannot match ("-")
 * still spends a try.
 */
async function confirmationCodeSignsIn(
  deps: CodeSignInDeps,
  userId: string,
  key: string,
  code: string,
): Promise<boolean> {
  try {
    await confirmIdentifier(deps, { userId, key, code });
    return true;
  } catch (err) {
    if (errorFacts(err).reason !== "INVALID_CODE") throw err;
    return false;
  }
}

/**
 * The credentials step with a one-time code instead of the password (code
 * sign-in, contract section 8), behind the address's throttle (the code's
 * own tries guard the account: throttle.ts, LoginGuard): a sign-in code
 * (access-code/store.ts), which also confirms the identifier it reached, or,
 * for an unconfirmed identifier, its confirmation code (that is how a
 * passwordless registration signs in). Every guess spends a try, also when
 * a `useForValidation` value is missing or different, which fails like a
 * wrong code. Unknown users: the same statements and the same error.
 */
export async function checkCodeCredentials(
  deps: CodeSignInDeps,
  req: { id: LoginIdentifier; code: string; datas: Map<string, string>; entrypoint: Entrypoint; clientAddress: string },
): Promise<UserRecord> {
  await countLoginAttempt(deps.kv, deps.limits, req.id.value, req.clientAddress, "one-time-code");
  const store = userStore(deps.db);
  const user = await store.byIdentifier(req.id.key, req.id.value);
  if (user?.awaitingActivation) return user;
  const allowed = user ? validationDataMatches(req.entrypoint, user, req.datas) : false;
  const identifier = user?.identifiers.find((i) => i.key === req.id.key);

  let ok = await useAccessCode(deps.db, deps, { userId: user?.id ?? "", key: req.id.key, code: req.code, allowed });
  if (ok && user && identifier && !identifier.confirmed) {
    // The code reached the value: that proves it as a confirmation would.
    await deps.db.tx(async (q) => {
      const store = userStore(q);
      if (await store.confirmActive(user.id, req.id.key, identifier.value))
        await store.supersedeConfirmations(user.id, req.id.key);
    });
  } else if (!ok && user && identifier && !identifier.confirmed) {
    ok = await confirmationCodeSignsIn(deps, user.id, req.id.key, allowed ? req.code : "-");
  }
  if (!user || !ok) throw domainError("INVALID_CREDENTIALS");
  await clearAccountAttempts(deps.kv, req.id.value, req.clientAddress);
  return (await store.byId(user.id)) ?? user;
}
