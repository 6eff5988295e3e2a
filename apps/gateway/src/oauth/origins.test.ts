import { describe, expect, it } from "vitest";
import { relyingPartyOrigins } from "./origins.ts";

// The origins cache against a registry whose answers the test releases one
// by one: a change notice that arrives while a load is in flight must not
// leave the old list cached as fresh.

function slowRegistry() {
  const pending: { origins: string[]; release: () => void }[] = [];
  let calls = 0;
  let list = ["https://old.example"];
  const registry = {
    listRedirectOrigins() {
      calls++;
      const origins = [...list];
      return new Promise<{ origins: string[] }>((resolve) =>
        pending.push({ origins, release: () => resolve({ origins }) }),
      );
    },
  };
  return {
    registry: registry as never,
    set: (origins: string[]) => (list = origins),
    releaseAll: () => pending.splice(0).forEach((p) => p.release()),
    calls: () => calls,
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("relyingPartyOrigins", () => {
  it("a notice during a load: the next lookup reads the registry again and sees the new origin", async () => {
    const reg = slowRegistry();
    const origins = relyingPartyOrigins(reg.registry);
    const first = origins.has("https://new.example");
    await tick();
    // The registry changes and announces it while the first load is in flight.
    reg.set(["https://old.example", "https://new.example"]);
    origins.invalidate();
    const second = origins.has("https://new.example");
    reg.releaseAll();
    expect(await first).toBe(false);
    await tick();
    reg.releaseAll();
    expect(await second).toBe(true);
    expect(reg.calls()).toBe(2);
    // Now fresh: no further load.
    expect(await origins.has("https://new.example")).toBe(true);
    expect(reg.calls()).toBe(2);
  });

  it("a notice after a load finished: the next lookup loads again; without one the list is cached", async () => {
    const reg = slowRegistry();
    const origins = relyingPartyOrigins(reg.registry);
    const a = origins.has("https://old.example");
    await tick();
    reg.releaseAll();
    expect(await a).toBe(true);
    expect(await origins.has("https://old.example")).toBe(true);
    expect(reg.calls()).toBe(1);
    reg.set(["https://new.example"]);
    origins.invalidate();
    const b = origins.has("https://new.example");
    await tick();
    reg.releaseAll();
    expect(await b).toBe(true);
    expect(reg.calls()).toBe(2);
  });

  it("a load started before the notice is not cached as fresh even when no lookup waited for a newer one", async () => {
    const reg = slowRegistry();
    const origins = relyingPartyOrigins(reg.registry);
    const a = origins.has("https://x.example");
    await tick();
    reg.set(["https://x.example"]);
    origins.invalidate();
    reg.releaseAll();
    expect(await a).toBe(false);
    const b = origins.has("https://x.example");
    await tick();
    reg.releaseAll();
    expect(await b).toBe(true);
    expect(reg.calls()).toBe(2);
  });
});
