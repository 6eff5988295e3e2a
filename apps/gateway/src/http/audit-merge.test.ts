import { create } from "@bufbuild/protobuf";
import { sealCursor } from "@gatehouse/admin";
import { AuditEntrySchema, type AuditEntry } from "@gatehouse/proto";
import { describe, expect, it } from "vitest";
import { decodeAuditCursor, encodeAuditCursor, mergeAuditPages, positionFor } from "./audit-merge.ts";

const entry = (id: number, us: bigint): AuditEntry =>
  create(AuditEntrySchema, {
    id: BigInt(id),
    time: { seconds: us / 1_000_000n, nanos: Number(us % 1_000_000n) * 1000 },
    actor: "client:op",
    action: "x",
    target: "t",
  });

describe("the merged audit order and cursor", () => {
  it("orders by time (newest first), then service name, then id (highest first)", () => {
    const t = 1_700_000_000_000_001n;
    const merged = mergeAuditPages(
      [
        { source: "users", entries: [entry(9, t), entry(8, t - 5n)], more: false },
        { source: "registry", entries: [entry(40, t + 1n), entry(31, t), entry(30, t)], more: false },
      ],
      10,
    );
    expect(merged.items.map((i) => `${i.source}-${i.entry.id}`)).toEqual([
      "registry-40",
      "registry-31",
      "registry-30",
      "users-9",
      "users-8",
    ]);
    expect(merged.next).toBe("");
  });

  it("takes `limit` and names the last one; a log with more also means a next page", () => {
    const t = 1_700_000_000_000_000n;
    const page = mergeAuditPages(
      [
        { source: "registry", entries: [entry(3, t), entry(2, t)], more: false },
        { source: "users", entries: [entry(7, t)], more: false },
      ],
      2,
    );
    expect(page.items.map((i) => i.entry.id)).toEqual([3n, 2n]);
    expect(decodeAuditCursor(page.next, ["registry", "users"])).toEqual({ timeUs: t, source: "registry", id: 2n });
    expect(mergeAuditPages([{ source: "users", entries: [entry(1, t)], more: true }], 5).next).not.toBe("");
  });

  it("asks each log for exactly what follows the cursor", () => {
    const c = { timeUs: 1_700_000_000_123_456n, source: "registry", id: 31n };
    const time = { seconds: 1_700_000_000n, nanos: 123_456_000 };
    expect(positionFor("registry", c)).toEqual({ time: expect.objectContaining(time), id: 31n });
    // "users" sorts after "registry": all its entries of that very time are still to come.
    expect(positionFor("users", c)).toEqual({ time: expect.objectContaining(time), id: 2n ** 63n - 1n });
    expect(positionFor("auth", c)).toEqual({ time: expect.objectContaining(time), id: 0n });
    expect(positionFor("users", undefined)).toBeUndefined();
  });

  it("round-trips a cursor and refuses anything else", () => {
    const c = { timeUs: 1n, source: "users", id: 2n };
    expect(decodeAuditCursor(encodeAuditCursor(c), ["users"])).toEqual(c);
    const sealed = [
      sealCursor({ t: "1", s: "elsewhere", i: "1" }),
      sealCursor({ t: "-1", s: "users", i: "1" }),
      sealCursor({ t: "1", s: "users" }),
    ];
    for (const bad of [
      "",
      "x",
      Buffer.from('{"t":"1","s":"users","i":"1"}').toString("base64url"),
      `${encodeAuditCursor(c)}x`,
      ...sealed,
    ]) {
      expect(() => decodeAuditCursor(bad, ["users"])).toThrow();
    }
  });
});
