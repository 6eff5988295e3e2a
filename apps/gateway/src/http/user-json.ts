import { toJson, type JsonValue } from "@bufbuild/protobuf";
import { ValueSchema, timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { Session, User } from "@gatehouse/proto";

const iso = (t: Timestamp | undefined) => (t ? timestampDate(t).toISOString() : undefined);
const map = <V, R>(m: Record<string, V>, f: (v: V) => R) =>
  Object.fromEntries(Object.entries(m).map(([k, v]) => [k, f(v)]));

/** The spec types the user id as a long (`login_status.uid`); numeric ids travel as JSON numbers. */
export const userIdJson = (id: string): number | string =>
  /^\d{1,16}$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : id;

/** `content.user` of the contract (section 5). */
export function userToJson(u: User): Record<string, unknown> {
  return {
    id: userIdJson(u.id),
    pulse_id: u.pulseId,
    objectType: "user",
    ids: map(u.ids, (i) => ({
      objectType: "user_id",
      value: i.value,
      confirmed: i.confirmed,
      ...(i.pending ? { pending: { value: i.pending.value, requested: iso(i.pending.requestTime) } } : {}),
    })),
    datas: map(u.datas, (d) => ({
      objectType: "data",
      value: d.value ? (toJson(ValueSchema, d.value) as JsonValue) : null,
    })),
    addresses: map(u.addresses, (a) => ({
      objectType: "address",
      streetAddress: a.streetAddress,
      postalCode: a.postalCode,
      addressLocality: a.addressLocality,
      addressRegion: a.addressRegion,
      addressCountry: a.addressCountry,
    })),
    assertions: map(u.assertions, (a) => ({
      objectType: "assertion",
      value: a.value,
      version: a.version,
      accepted: iso(a.acceptTime),
    })),
    created: iso(u.createTime),
    updated: iso(u.updateTime),
    // Accounts at upstream identity providers (contract section 11).
    identities: u.identities.map((i) => ({
      provider: i.provider,
      subject: i.subject,
      email: i.email,
      linked: iso(i.linked),
    })),
  };
}

/** `content.session_info` of the spec's login response. */
export function sessionToJson(s: Session, userId: string): Record<string, unknown> {
  return {
    access_token: s.accessToken,
    token_type: "bearer",
    expires_in: Number(s.expiresIn),
    expires_at: Number(s.expiresAtMs),
    refresh_token: s.refreshToken,
    login_status: { uid: userIdJson(userId), connect_state: s.connectState || "connected" },
    scope: s.scope,
  };
}
