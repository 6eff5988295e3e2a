import { describe, expect, it } from "vitest";
import { keepingJobAlive } from "./bulk.ts";

describe("keepingJobAlive", () => {
  it("sends an empty batch every interval while the work runs, and none once it ends (or fails)", async () => {
    const beats: unknown[] = [];
    const users = {
      importUserLines: async (req: unknown) => {
        beats.push(req);
        return {} as never;
      },
    };
    const job = { id: "j1", firebase: "" };
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    expect(await keepingJobAlive(users, job, () => sleep(130).then(() => "spooled"), 40)).toBe("spooled");
    expect(beats.length).toBeGreaterThanOrEqual(2);
    expect(beats[0]).toEqual({ jobId: "j1", firstLine: 1, lines: [], firebaseParams: "" });
    const after = beats.length;
    await expect(keepingJobAlive(users, job, () => Promise.reject(new Error("upload cut")), 10)).rejects.toThrow(
      "upload cut",
    );
    await sleep(60);
    expect(beats.length).toBe(after);
  });

  it("a beat the service refuses does not stop the work", async () => {
    const users = { importUserLines: () => Promise.reject(new Error("unavailable")) };
    const slow = () => new Promise((r) => setTimeout(() => r("done"), 50));
    expect(await keepingJobAlive(users, { id: "j2", firebase: "" }, slow, 10)).toBe("done");
  });
});
