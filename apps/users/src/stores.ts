import type { AuditLog } from "@gatehouse/admin";
import type { Db, Queryable } from "@gatehouse/db";
import { accessCodeStore, type AccessCodeStore } from "./access-code/store.ts";
import { activationStore, type ActivationStore } from "./activation/store.ts";
import { accountStore, auditOf, type AccountStore } from "./admin/store.ts";
import { exportReads, type ExportReads } from "./bulk/export.ts";
import { importStore, type ImportStore } from "./bulk/store.ts";
import { confirmationStore, type ConfirmationStore } from "./confirmation/store.ts";
import { passkeyStore, type PasskeyStore } from "./passkeys/store.ts";
import { deliveriesOver, type Deliveries } from "./delivery/queue.ts";
import type { SmsGate } from "./delivery/sms-gate.ts";
import { eventStore, type EventStore } from "./events/store.ts";
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
  passkeys: PasskeyStore;
  accounts: AccountStore;
  audit: AuditLog;
  /** Deliveries queued with the change (the in-process queue's outbox row is written in the same transaction). */
  deliveries: Deliveries;
  /** The events outbox (contract section 14): written in the change's transaction. */
  events: EventStore;
  /** Bulk imports and exports (contract section 15). */
  imports: ImportStore;
  exports: ExportReads;
}

export function storesOver(q: Queryable, enqueue: Enqueue, wroteEvent?: () => void, sms?: SmsGate): Stores {
  const events = eventStore(q);
  return {
    users: userStore(q),
    confirmations: confirmationStore(q),
    accessCodes: accessCodeStore(q),
    activations: activationStore(q),
    acceptances: acceptanceStore(q),
    totp: totpStore(q),
    identities: identityStore(q),
    passkeys: passkeyStore(q),
    accounts: accountStore(q),
    audit: auditOf(q),
    deliveries: deliveriesOver(q, enqueue, sms),
    events: wroteEvent
      ? {
          record: (e) => (wroteEvent(), events.record(e)),
          user: (...args) => (wroteEvent(), events.user(...args)),
          async admitLogin(...args) {
            const pulseId = await events.admitLogin(...args);
            if (pulseId) wroteEvent();
            return pulseId;
          },
          saveProfile(userId, change, written) {
            if (written.length) wroteEvent();
            return events.saveProfile(userId, change, written);
          },
        }
      : events,
    imports: importStore(q),
    exports: exportReads(q),
  };
}

/**
 * The stores over the pool, and `tx` handing every store over one
 * transaction's connection; `committedEvents` hears of a committed
 * transaction that wrote an event (the relay then looks at once).
 */
export function dataOver(db: Db, enqueue: Enqueue, committedEvents?: () => void, sms?: SmsGate): Transactional<Stores> {
  return {
    ...storesOver(db, enqueue, committedEvents, sms),
    async tx(fn) {
      let wrote = false;
      const out = await db.tx((q) => fn(storesOver(q, enqueue, () => (wrote = true), sms)));
      if (wrote) committedEvents?.();
      return out;
    },
  };
}
