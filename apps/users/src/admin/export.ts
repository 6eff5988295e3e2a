import type { JsonObject } from "@bufbuild/protobuf";
import { timestampOfMicros, type AuditContext } from "@gatehouse/admin";
import type { UserSessionInfo } from "../ports.ts";
import { findAccount, type Account } from "./accounts.ts";
import { sessionsOf, type AdminDeps, type AdminStores } from "./actions.ts";

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);
// Far more than one user ever gathers; the export is complete below it.
const MAX_AUDIT_ENTRIES = 10_000;

/**
 * Everything stored about a user besides the public record: where they
 * registered, the MFA state, every answer to a legal assertion, the
 * confirmations sent, the live sessions and the audit entries about them.
 * Never a password hash, TOTP secret, code, token or their hashes.
 */
export async function exportRecords(s: AdminStores, a: Account, sessions: UserSessionInfo[]): Promise<JsonObject> {
  const id = a.user.id;
  // One after the other: the queries share the transaction's connection.
  const registration = await s.users.registration(id);
  const totp = await s.totp.state(id);
  const recovery = await s.totp.recoveryCounts(id);
  const answers = await s.acceptances.history(id);
  const confirmations = await s.confirmations.history(id);
  const passkeys = await s.passkeys.ofUser(id);
  const entries = await s.audit.list({ target: id }, undefined, MAX_AUDIT_ENTRIES);
  return {
    registration: { clientId: registration?.clientId ?? null, entrypointId: registration?.entrypointId ?? null },
    // Accounts at upstream identity providers (contract section 11); no upstream token is ever kept.
    identities: a.user.linkedIdentities.map((l) => ({
      provider: l.provider,
      subject: l.subject,
      email: l.email,
      linked: l.linkedAt.toISOString(),
    })),
    account: {
      passwordless: a.user.passwordHash === null,
      lockedAt: iso(a.facts.lockedAt),
      lastLogin: iso(a.facts.lastLoginAt),
    },
    mfa: {
      totp: a.facts.mfaEnabledAt !== null,
      enabledAt: iso(a.facts.mfaEnabledAt),
      enrolmentPending: Boolean(totp?.totpSealed) && a.facts.mfaEnabledAt === null,
      recoveryCodes: recovery,
    },
    assertionAnswers: answers.map((r) => ({
      key: r.key,
      version: r.version,
      value: r.value,
      clientId: r.clientId,
      sourceId: r.sourceId,
      via: r.via,
      answeredAt: iso(r.answeredAt),
    })),
    confirmations: confirmations.map((r) => ({
      key: r.key,
      value: r.value,
      purpose: r.purpose,
      contextUrl: r.contextUrl,
      clientId: r.clientId,
      entrypointId: r.entrypointId,
      created: iso(r.createdAt),
      expires: iso(r.expiresAt),
      attempts: r.attempts,
      used: iso(r.usedAt),
      superseded: iso(r.supersededAt),
    })),
    // Each passkey's id, name and dates; never its key or credential id.
    passkeys: passkeys.map((p) => ({
      id: p.id,
      name: p.name,
      created: iso(p.createdAt),
      lastUsed: iso(p.lastUsedAt),
      backedUp: p.backedUp,
    })),
    sessions: sessions.map((session) => ({
      clientId: session.clientId,
      created: iso(session.created),
      refreshed: iso(session.refreshed),
      expires: iso(session.expires),
      ...(session.sourceId ? { sourceId: session.sourceId } : {}),
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
  const sessions = await sessionsOf(deps).list((await findAccount(deps.data, id)).user.id);
  return deps.data.tx(async (s) => {
    const account = await findAccount(s, id);
    const records = await exportRecords(s, account, sessions);
    await s.audit.record({ ...who, action: "user.export", target: account.user.id });
    return { account, sessionCount: sessions.length, records };
  });
}
