import { describe, expect, it } from "vitest";
import { bullPrefix, defaultJobOptions, jobIdFor, openJobSecrets, QUEUE_NAME, sealJobSecrets } from "../src/index.ts";
import { testKeys } from "./helpers.ts";

describe("job names and secrets", () => {
  it("uses the agreed names and retry policy", () => {
    expect(QUEUE_NAME).toBe("confirmation-delivery");
    expect(defaultJobOptions).toEqual({
      attempts: 12,
      backoff: { type: "exponential", delay: 2000, jitter: 0.5 },
      removeOnComplete: { age: 86_400 },
      removeOnFail: { age: 14 * 86_400 },
    });
  });

  it("seals the code so the payload never holds it in clear, bound to the delivery id", () => {
    const keys = testKeys();
    const sealed = sealJobSecrets(keys, "d1", { code: "482913", linkToken: "tok-abc" });
    expect(sealed).not.toContain("482913");
    expect(sealed).not.toContain("tok-abc");
    expect(openJobSecrets(keys, { deliveryId: "d1", sealedSecrets: sealed })).toEqual({
      code: "482913",
      linkToken: "tok-abc",
    });
    // Moved to another job, or opened with another key: refused.
    expect(() => openJobSecrets(keys, { deliveryId: "d2", sealedSecrets: sealed })).toThrow();
    expect(() => openJobSecrets(testKeys(), { deliveryId: "d1", sealedSecrets: sealed })).toThrow();
  });

  it("builds BullMQ-safe job ids and prefixes", () => {
    expect(jobIdFor("abc-123")).toBe("confirm-abc-123");
    expect(() => jobIdFor("a:b")).toThrow();
    expect(() => jobIdFor("")).toThrow();
    expect(bullPrefix("gh:")).toBe("gh");
    expect(bullPrefix("ghtest:1f2e:")).toBe("ghtest:1f2e");
    expect(bullPrefix(undefined)).toBe("gh");
  });
});
