import { afterAll, describe, expect, it } from "vitest";
import { openKv, type Kv } from "@gatehouse/kv";
import { redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { sleep } from "../../test/harness.ts";
import { createRevocationList } from "./revocation-list.ts";

const stores: [string, () => Kv][] = [
  ["Redis", () => openKv({ redisUrl: redisTestUrl(), prefix: uniquePrefix() })],
  ["memory", () => openKv({})],
];

describe.each(stores)("revocation list on %s", (_name, open) => {
  const kv = open();
  const revocations = createRevocationList(kv);
  const now = () => Math.floor(Date.now() / 1000);
  afterAll(() => kv.close());

  it("remembers a revoked jti only until the token would have expired", async () => {
    await revocations.revoke("jti-short", now() + 1);
    await revocations.revoke("jti-long", now() + 3600);
    expect(await revocations.isRevoked("jti-short")).toBe(true);
    expect(await revocations.isRevoked("jti-long")).toBe(true);
    await sleep(2_100);
    expect(await revocations.isRevoked("jti-short")).toBe(false);
    expect(await revocations.isRevoked("jti-long")).toBe(true);
  });

  it("writes nothing for a token that has already expired", async () => {
    await revocations.revoke("jti-expired", now() - 5);
    expect(await kv.get("revoked:at:jti-expired")).toBeNull();
    expect(await revocations.isRevoked("never-revoked")).toBe(false);
  });
});
