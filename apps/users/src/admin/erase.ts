import { createHash } from "node:crypto";
import { toJson } from "@bufbuild/protobuf";
import type { AuditContext } from "@gatehouse/admin";
import { UserSchema } from "@gatehouse/proto";
import { toUser } from "../users/model.ts";
import { findAccount } from "./accounts.ts";
import { sessionsOf, type AdminDeps } from "./actions.ts";
import { exportRecords } from "./export.ts";

/**
 * Erasure (contract section 6, GDPR art. 17): the account is locked (no new
 * login), every session ended, then in one transaction its personal data is
 * removed and the audit entry written. The identifiers are deleted, so the
 * values are free for a new registration at once. What stays: a tombstone
 * row (object_id, pulse_id, creation and deletion times, so the ids are never
 * reused and answer 404) and the audit entry: the ids, what kinds of data were
 * erased, how many sessions were ended and the SHA-256 of what was erased.
 * A failure before the last step leaves the account locked; erasing again
 * finishes it.
 */
export async function eraseUser(deps: AdminDeps, id: string, who: AuditContext): Promise<void> {
  const sessions = sessionsOf(deps);
  const userId = await deps.data.tx(async (s) => {
    const found = await findAccount(s, id, true);
    await s.accounts.lock(found.user.id);
    return found.user.id;
  });
  const ended = await sessions.endAll(userId);
  await deps.data.tx(async (s) => {
    const account = await findAccount(s, userId, true);
    const records = await exportRecords(s, account, []);
    const erased = { user: toJson(UserSchema, toUser(account.user)), records };
    const digest = createHash("sha256").update(JSON.stringify(erased)).digest("hex");
    // Each domain's rows of the user; the users row stays as a tombstone.
    await s.confirmations.erase(userId);
    await s.acceptances.erase(userId);
    await s.totp.erase(userId);
    await s.passkeys.erase(userId);
    await s.accessCodes.erase(userId);
    await s.activations.erase(userId);
    const identities = await s.identities.unlinkAll(userId);
    // Ids only, nothing of what is erased; written first, while the row still names the user's application.
    await s.events.user("user.deleted", null, account.user);
    await s.users.erase(userId);
    const u = account.user;
    await s.audit.record({
      ...who,
      action: "user.delete",
      target: userId,
      details: {
        pulseId: u.pulseId,
        erased: {
          identifiers: u.identifiers.map((i) => i.key),
          datas: Object.keys(u.datas).length,
          addresses: Object.keys(u.addresses).length,
          assertionAnswers: (records.assertionAnswers as unknown[]).length,
          confirmations: (records.confirmations as unknown[]).length,
          identities,
          passkeys: (records.passkeys as unknown[]).length,
        },
        sessionsEnded: ended,
        sha256: digest,
      },
    });
  });
}
