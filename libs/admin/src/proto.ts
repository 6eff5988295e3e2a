import { create, type JsonObject } from "@bufbuild/protobuf";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import {
  AuditEntrySchema,
  type AuditEntry,
  type AuditFilter as AuditFilterMessage,
  type AuditPosition as AuditPositionMessage,
} from "@gatehouse/proto";
import type { AuditFilter, AuditPosition, AuditRow } from "./log.ts";

const MICROS = 1_000_000n;

/** A protobuf Timestamp of microseconds since the epoch (exact). */
export function timestampOfMicros(us: bigint): Timestamp {
  const seconds = us >= 0n ? us / MICROS : -((-us + MICROS - 1n) / MICROS);
  return { $typeName: "google.protobuf.Timestamp", seconds, nanos: Number(us - seconds * MICROS) * 1000 };
}

/** Microseconds since the epoch of a Timestamp (sub-microsecond parts dropped). */
export function microsOfTimestamp(t: Timestamp): bigint {
  return t.seconds * MICROS + BigInt(Math.floor(t.nanos / 1000));
}

export function toAuditEntry(r: AuditRow): AuditEntry {
  return create(AuditEntrySchema, {
    id: r.id,
    time: timestampOfMicros(r.timeUs),
    actor: r.actor,
    action: r.action,
    target: r.target,
    address: r.address,
    details: r.details as JsonObject,
  });
}

export function auditFilterOf(f: AuditFilterMessage | undefined): AuditFilter {
  return {
    actor: f?.actor ?? "",
    action: f?.action ?? "",
    target: f?.target ?? "",
    ...(f?.since ? { sinceUs: microsOfTimestamp(f.since) } : {}),
  };
}

export function auditPositionOf(p: AuditPositionMessage | undefined): AuditPosition | undefined {
  return p?.time ? { timeUs: microsOfTimestamp(p.time), id: p.id } : undefined;
}
