import type { IdKey } from "./identifiers.ts";
import type { JsonMap, UserRecord } from "./record.ts";

/** A users row as the user's query selects it (USER_SELECT). */
export interface UserSqlRow {
  id: string;
  pulse_id: string;
  password_hash: string | null;
  datas: JsonMap;
  addresses: JsonMap;
  assertions: JsonMap;
  created_at: Date;
  updated_at: Date;
  version: number;
  locked_at: Date | null;
  awaiting_activation: boolean;
  role: string;
  mfa_enabled_at: Date | null;
  identifiers: IdentifierJson[];
  linked: { provider: string; subject: string; email: string; linked_ms: number }[];
}

/** One identifier as the user's query aggregates it (JSON: the time comes as epoch milliseconds). */
interface IdentifierJson {
  key: IdKey;
  value: string;
  confirmed: boolean;
  pending_value: string | null;
  pending_requested_ms: number | null;
}

const USER_COLUMNS =
  "id, pulse_id, password_hash, datas, addresses, assertions, created_at, updated_at, version, locked_at, awaiting_activation, role, mfa_enabled_at";

/**
 * The user's columns (of the users row aliased `u`) and its identifiers,
 * ordered by key, aggregated in the same query: a login or an update reads
 * its user in one round trip instead of two.
 */
export const USER_SELECT = `${USER_COLUMNS.split(", ")
  .map((c) => `u.${c}`)
  .join(", ")},
  (SELECT COALESCE(json_agg(json_build_object('key', ids.key, 'value', ids.value, 'confirmed', ids.confirmed,
            'pending_value', ids.pending_value, 'pending_requested_ms', (extract(epoch FROM ids.pending_requested_at) * 1000)::float8)
            ORDER BY ids.key), '[]'::json)
     FROM users.identifiers ids WHERE ids.user_id = u.id) AS identifiers,
  (SELECT COALESCE(json_agg(json_build_object('provider', li.provider, 'subject', li.subject, 'email', li.email,
            'linked_ms', (extract(epoch FROM li.linked_at) * 1000)::float8) ORDER BY li.provider), '[]'::json)
     FROM users.identities li WHERE li.user_id = u.id) AS linked`;

export function toRecord(row: UserSqlRow | undefined): UserRecord | undefined {
  if (!row) return undefined;
  return {
    id: row.id,
    pulseId: row.pulse_id,
    passwordHash: row.password_hash,
    datas: row.datas ?? {},
    addresses: row.addresses ?? {},
    assertions: row.assertions ?? {},
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
    lockedAt: row.locked_at ?? null,
    awaitingActivation: row.awaiting_activation,
    operator: row.role === "operator",
    mfaEnabled: row.mfa_enabled_at !== null,
    identifiers: row.identifiers.map((i) => ({
      key: i.key,
      value: i.value,
      confirmed: i.confirmed,
      pendingValue: i.pending_value,
      pendingRequestedAt: i.pending_requested_ms === null ? null : new Date(i.pending_requested_ms),
    })),
    linkedIdentities: (row.linked ?? []).map((l) => ({
      provider: l.provider,
      subject: l.subject,
      email: l.email,
      linkedAt: new Date(l.linked_ms),
    })),
  };
}
