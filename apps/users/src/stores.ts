import type { AuditLog } from "@gatehouse/admin";
import type { Db, Queryable } from "@gatehouse/db";
import { accessCodeStore, type AccessCodeStore } from "./access-code/store.ts";
import { activationStore, type ActivationStore } from "./activation/store.ts";
import { accountStore, auditOf, type AccountStore } from "./admin/store.ts";
import { confirmationStore, type ConfirmationStore } from "./confirmation/store.ts";
import { deliveriesOver, type Deliveries } from "./delivery/queue.ts";
import type { Enqueue } from "./ports.ts";
import { acceptanceStore, type AcceptanceStore } from "./terms/store.ts";
import type { Transactional } from "./transactional.ts";
import { userStore, type UserStore } from "./users/store.ts";
import { totpStore, type TotpStore } from "./verifiers/totp/store.ts";
import { identityStore, type IdentityStore } from "./verifiers/upstream/store.ts";

/** Every store of the users service, over one Queryable: the pool, or one transaction's connection. */
export interface Stores {
  users: UserStore;
  confirmations: ConfirmationStore;
  accessCodes: AccessCodeStore;
  activations: ActivationStore;
  acceptances: AcceptanceStore;
  totp: TotpStore;
  /** Accounts at upstream identity providers (social sign-in). */
  identities: IdentityStore;
  accounts: AccountStore;
  audit: AuditLog;
  /** Deliveries queued with the change (the in-process queue's outbox row is written in the same transaction). */
  deliveries: Deliveries;
}

export function storesOver(q: Queryable, enqueue: Enqueue): Stores {
  return {
    users: userStore(q),
    confirmations: confirmationStore(q),
    accessCodes: accessCodeStore(q),
    activations: activationStore(q),
    acceptances: acceptanceStore(q),
    totp: totpStore(q),
    identities: identityStore(q),
    accounts: accountStore(q),
    audit: auditOf(q),
    deliveries: deliveriesOver(q, enqueue),
  };
}

/** The stores over the pool, and `tx` handing every store over one transaction's connection. */
export function dataOver(db: Db, enqueue: Enqueue): Transactional<Stores> {
  return { ...storesOver(db, enqueue), tx: (fn) => db.tx((q) => fn(storesOver(q, enqueue))) };
}
