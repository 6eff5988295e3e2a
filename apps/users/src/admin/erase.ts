import { createHash } from "node:crypto";
import { toJson } from "@bufbuild/protobuf";
import type { AuditContext } from "@gatehouse/admin";
import { UserSchema } from "@gatehouse/proto";
import { toUser } from "../users/model.ts";
import { accountStore } from "./accounts.ts";
import { audit, sessionsOf, type AdminDeps } from "./actions.ts";
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
  const userId = await deps.db.tx(async (q) => {
    const found = await accountStore(q).find(id, true);
    await q.query("UPDATE users.users SET locked_at = COALESCE(locked_at, now()) WHERE id = $1", [found.user.id]);
    return found.user.id;
  });
  const ended = await sessions.endAll(userId);
  await deps.db.tx(async (q) => {
    const account = await accountStore(q).find(userId, true);
    const records = await exportRecords(q, account, []);
    const erased = { user: toJson(UserSchema, toUser(account.user)), records };
    const digest = createHash("sha256").update(JSON.stringify(erased)).digest("hex");
    for (const table of ["identifiers", "confirmations", "assertion_acceptances", "mfa_recovery_codes"]) {
      await q.query(`DELETE FROM users.${table} WHERE user_id = $1`, [userId]);
    }
    await q.query(
      `UPDATE users.users SET password_hash = NULL, datas = '{}', addresses = '{}', assertions = '{}',
              registered_client_id = NULL, registered_entrypoint = NULL, mfa_totp_sealed = NULL, mfa_enabled_at = NULL,
              last_login_at = NULL, locked_at = NULL, deleted_at = now(), updated_at = now(), version = version + 1
        WHERE id = $1`,
      [userId],
    );
    const u = account.user;
    await audit(q).record({
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
        },
        sessionsEnded: ended,
        sha256: digest,
      },
    });
  });
}
