import type { JsonObject } from "@bufbuild/protobuf";
import { timestampOfMicros, type AuditContext } from "@gatehouse/admin";
import type { Queryable } from "@gatehouse/db";
import { accountStore, type Account } from "./accounts.ts";
import { audit, sessionsOf, type AdminDeps } from "./actions.ts";
import type { UserSessionInfo } from "../ports.ts";

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);
// Far more than one user ever gathers; the export is complete below it.
const MAX_AUDIT_ENTRIES = 10_000;

interface ConfirmationRow {
  key: string;
  value: string;
  purpose: string;
  context_url: string | null;
  client_id: string | null;
  entrypoint_id: string | null;
  created_at: Date;
  expires_at: Date;
  attempts: number;
  used_at: Date | null;
  superseded_at: Date | null;
}

interface AnswerRow {
  key: string;
  version: string;
  value: boolean;
  client_id: string;
  source_id: string;
  via: string;
  answered_at: Date;
}

/**
 * Everything stored about a user besides the public record: where they
 * registered, the MFA state, every answer to a legal assertion, the
 * confirmations sent, the live sessions and the audit entries about them.
 * Never a password hash, TOTP secret, code, token or their hashes.
 */
export async function exportRecords(q: Queryable, a: Account, sessions: UserSessionInfo[]): Promise<JsonObject> {
  const id = a.user.id;
  // One after the other: the queries share the transaction's connection.
  const user = await q.query<{
    registered_client_id: string | null;
    registered_entrypoint: string | null;
    totp_enrolled: boolean;
  }>(
    "SELECT registered_client_id, registered_entrypoint, mfa_totp_sealed IS NOT NULL AS totp_enrolled FROM users.users WHERE id = $1",
    [id],
  );
  const recovery = await q.query<{ total: number; used: number }>(
    "SELECT count(*)::int AS total, count(used_at)::int AS used FROM users.mfa_recovery_codes WHERE user_id = $1",
    [id],
  );
  const answers = await q.query<AnswerRow>(
    "SELECT key, version, value, client_id, source_id, via, answered_at FROM users.assertion_acceptances WHERE user_id = $1 ORDER BY answered_at, id",
    [id],
  );
  const confirmations = await q.query<ConfirmationRow>(
    `SELECT key, value, purpose, context_url, client_id, entrypoint_id, created_at, expires_at, attempts, used_at, superseded_at
       FROM users.confirmations WHERE user_id = $1 ORDER BY created_at, id`,
    [id],
  );
  const entries = await audit(q).list({ target: id }, undefined, MAX_AUDIT_ENTRIES);
  const u = user.rows[0];
  return {
    registration: { clientId: u?.registered_client_id ?? null, entrypointId: u?.registered_entrypoint ?? null },
    account: {
      passwordless: a.user.passwordHash === null,
      lockedAt: iso(a.facts.lockedAt),
      lastLogin: iso(a.facts.lastLoginAt),
    },
    mfa: {
      totp: a.facts.mfaEnabledAt !== null,
      enabledAt: iso(a.facts.mfaEnabledAt),
      enrolmentPending: (u?.totp_enrolled ?? false) && a.facts.mfaEnabledAt === null,
      recoveryCodes: { total: recovery.rows[0]?.total ?? 0, used: recovery.rows[0]?.used ?? 0 },
    },
    assertionAnswers: answers.rows.map((r) => ({
      key: r.key,
      version: r.version,
      value: r.value,
      clientId: r.client_id,
      sourceId: r.source_id,
      via: r.via,
      answeredAt: iso(r.answered_at),
    })),
    confirmations: confirmations.rows.map((r) => ({
      key: r.key,
      value: r.value,
      purpose: r.purpose,
      contextUrl: r.context_url,
      clientId: r.client_id,
      entrypointId: r.entrypoint_id,
      created: iso(r.created_at),
      expires: iso(r.expires_at),
      attempts: r.attempts,
      used: iso(r.used_at),
      superseded: iso(r.superseded_at),
    })),
    sessions: sessions.map((s) => ({
      clientId: s.clientId,
      created: iso(s.created),
      refreshed: iso(s.refreshed),
      expires: iso(s.expires),
    })),
    audit: entries.map((e) => {
      const t = timestampOfMicros(e.timeUs);
      return {
        id: `users-${e.id}`,
        time: new Date(Number(t.seconds) * 1000 + t.nanos / 1e6).toISOString(),
        actor: e.actor,
        action: e.action,
        address: e.address,
        details: e.details as JsonObject,
      };
    }),
  };
}

/** The export of a user (contract section 6), recorded in the audit log in the same transaction as it is read. */
export async function exportUser(
  deps: AdminDeps,
  id: string,
  who: AuditContext,
): Promise<{ account: Account; sessionCount: number; records: JsonObject }> {
  const sessions = await sessionsOf(deps).list((await accountStore(deps.db).find(id)).user.id);
  return deps.db.tx(async (q) => {
    const account = await accountStore(q).find(id);
    const records = await exportRecords(q, account, sessions);
    await audit(q).record({ ...who, action: "user.export", target: account.user.id });
    return { account, sessionCount: sessions.length, records };
  });
}
