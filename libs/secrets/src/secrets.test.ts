import { createHmac } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  constantTimeEqual,
  KeyRing,
  loadKeyRing,
  parseSecretKey,
  pooledRandomSecret,
  randomDigits,
  randomSecret,
} from "./index.ts";

describe("secrets", () => {
  it("makes 256-bit secrets and numeric ids", () => {
    const s = randomSecret();
    expect(Buffer.from(s, "base64url").length).toBe(32);
    expect(randomSecret()).not.toBe(s);
    expect(randomDigits(12)).toMatch(/^[1-9]\d{11}$/);
    const ids = new Set(Array.from({ length: 1000 }, () => pooledRandomSecret(16)));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(Buffer.from(id, "base64url").length).toBe(16);
  });
  it("compares in constant time and exactly", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
  });
  it("seals and opens, bound to its associated data and key", () => {
    const ring = new KeyRing(Buffer.alloc(32, 7));
    const box = ring.box("client-secret");
    const sealed = box.seal("s3cret", "app-1");
    expect(sealed).not.toContain("s3cret");
    expect(box.open(sealed, "app-1")).toBe("s3cret");
    expect(() => box.open(sealed, "app-2")).toThrow();
    expect(() => ring.box("other").open(sealed, "app-1")).toThrow();
    // A truncated authentication tag is refused, not checked on fewer bytes.
    const [v, iv, ct, tag] = sealed.split(".");
    const short = [v, iv, ct, Buffer.from(tag!, "base64url").subarray(0, 8).toString("base64url")].join(".");
    expect(() => box.open(short, "app-1")).toThrow();
  });
  it("derives distinct MAC keys per label", () => {
    const ring = new KeyRing(Buffer.alloc(32, 1));
    expect(ring.mac("a")("x")).not.toBe(ring.mac("b")("x"));
    expect(ring.mac("a")("x")).toBe(ring.mac("a")("x"));
    // HMAC-SHA256 of the label's derived key, base64url: hashes stored by earlier versions still match.
    expect(ring.mac("a")("x")).toBe(createHmac("sha256", ring.derive("mac:a")).update("x").digest("base64url"));
  });
  it("creates one key file in the data dir and reuses it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gh-key-"));
    const [a, b] = await Promise.all([loadKeyRing(undefined, dir), loadKeyRing(undefined, dir)]);
    expect(a.derive("x").equals(b.derive("x"))).toBe(true);
    expect(() => parseSecretKey("short")).toThrow(/32 or more/);
  });
});
