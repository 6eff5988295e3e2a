import { domainError } from "@gatehouse/errors";
import type { DeliveryLocale } from "@gatehouse/jobs";
import { issueConfirmation, type IssueDeps, type IssueStores } from "../confirmation/issue.ts";
import { IDENTIFIER_UNIQUE, isUniqueViolation, type UserStore } from "../users/store.ts";
import type { IdOp, UpdatePlan } from "./plan.ts";

/** The stores an update writes, in one transaction. */
export type ApplyStores = IssueStores & { users: UserStore };

/** Where the change came from: the codes it sends name it. */
export interface ChangeOrigin {
  clientId: string;
  entrypointId: string;
  /** Only a whitelisted context.url is kept; otherwise the link lands on the default callback. */
  contextUrl: string | undefined;
  locale: DeliveryLocale;
}

export const constraintViolation = (violations: UpdatePlan["violations"]) =>
  domainError("CONSTRAINT_VIOLATION", undefined, { violations });

/** Another user holding a wanted value is a 416 on that field (checked again by the unique constraint). */
export async function takenValues(users: UserStore, userId: string, ops: IdOp[]) {
  const taken = [];
  for (const op of ops) {
    if (op.kind === "delete" || op.kind === "unpend") continue;
    const holder = await users.holderOf(op.key, op.value);
    if (holder && holder !== userId) taken.push({ field: `object.ids.${op.key}.value`, code: "duplicate" });
  }
  return taken;
}

/** One identifier change, its older codes superseded and, when the value must be confirmed, its code queued. */
export async function applyIdOp(
  s: ApplyStores,
  deps: IssueDeps,
  origin: ChangeOrigin,
  userId: string,
  op: IdOp,
): Promise<void> {
  if (op.kind === "delete" || op.kind === "unpend") {
    if (op.kind === "delete") await s.users.deleteIdentifier(userId, op.key);
    else await s.users.setPending(userId, op.key, null);
    await s.confirmations.supersedeLive(userId, op.key);
    return;
  }
  try {
    if (op.kind === "insert") await s.users.insertIdentifier(userId, op.key, op.value, false);
    else if (op.kind === "replace") await s.users.replaceIdentifier(userId, op.key, op.value);
    else await s.users.setPending(userId, op.key, op.value);
  } catch (err) {
    if (!isUniqueViolation(err, IDENTIFIER_UNIQUE)) throw err;
    throw constraintViolation([{ field: `object.ids.${op.key}.value`, code: "duplicate" }]);
  }
  if (op.kind !== "pend") await s.confirmations.supersedeLive(userId, op.key);
  if (!op.sendCode) return;
  await issueConfirmation(s, deps, {
    userId,
    key: op.key as "email" | "phone_number",
    value: op.value,
    purpose: op.kind === "insert" ? "register" : "change",
    ...origin,
  });
}
