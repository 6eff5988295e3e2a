import { describe, expect, it } from "vitest";
import { gate } from "./passwords.ts";

describe("gate", () => {
  it("runs at most `slots` calls at once, in arrival order, and frees a slot when a call fails", async () => {
    const run = gate(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (i: number) =>
      run(async () => {
        running++;
        peak = Math.max(peak, running);
        order.push(i);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        if (i === 1) throw new Error("boom");
        return i;
      });
    const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map(task));
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(results.map((r) => r.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "fulfilled",
    ]);
  });
});
