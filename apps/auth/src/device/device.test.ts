import { describe, expect, it } from "vitest";
import { errorFacts } from "@gatehouse/errors";
import {
  backends,
  creds,
  memoryDirectory,
  OPERATOR,
  openStores,
  publicCreds,
  SHOP,
  type Stores,
} from "../../test/harness.ts";
import { authorizeDevice } from "./authorize.ts";
import { createDeviceAuthorizations, type DeviceAuthorizations } from "./devices.ts";
import { decideDevice, lookUpUserCode } from "./person.ts";
import { pollDeviceCode } from "./poll.ts";
import { deviceStore } from "./store.ts";

// The device grant's rules on a clock the test moves, on both stores:
// expiry and its memory, slow_down's growing interval, the one claim of
// racing polls, the wrong-code limit per address.

const reasonOf = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (err: unknown) => errorFacts(err).reason,
  );

describe.each(backends)("device authorizations on %s", (_name, open) => {
  async function rig(
    fn: (r: { stores: Stores; devices: DeviceAuthorizations; clock: { t: number } }) => Promise<void>,
  ) {
    const stores = await openStores(open);
    const clock = { t: Date.parse("2026-01-01T00:00:00Z") + Math.floor(Math.random() * 1e9) };
    const devices = createDeviceAuthorizations({
      store: deviceStore(stores.db),
      kv: stores.kv,
      hashDeviceCode: (c) => `d:${c}`,
      hashUserCode: (c) => `u:${c}`,
      settings: { failuresPerAddress: 3 },
      now: () => clock.t,
    });
    try {
      await fn({ stores, devices, clock });
    } finally {
      await stores.close();
    }
  }
  const clients = memoryDirectory();
  const start = (devices: DeviceAuthorizations, scope = "") =>
    authorizeDevice({ clients, devices }, { client: publicCreds() as never, scope, entrypointId: "", sourceId: "itv" });

  it("answers expired_token after expires_in, for 10 minutes, then invalid_grant", async () => {
    await rig(async ({ devices, clock }) => {
      const d = await start(devices);
      expect(d).toMatchObject({ expiresIn: 600, interval: 5 });
      expect(d.userCode).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
      clock.t += 600_000;
      expect(await reasonOf(pollDeviceCode(devices, d.deviceCode, SHOP.clientId + "_web"))).toBe("EXPIRED_TOKEN");
      expect(await lookUpUserCode(devices, d.userCode, "198.51.100.1")).toEqual({ found: false });
      clock.t += 10 * 60_000 + 1000;
      await start(devices); // a new request purges what is past its memory
      expect(await reasonOf(pollDeviceCode(devices, d.deviceCode, SHOP.clientId + "_web"))).toBe("INVALID_GRANT");
    });
  });

  it("slow_down grows the interval by 5 s each time; another client's code is invalid_grant", async () => {
    await rig(async ({ devices, clock }) => {
      const d = await start(devices);
      const pollNow = () => reasonOf(pollDeviceCode(devices, d.deviceCode, `${SHOP.clientId}_web`));
      expect(await pollNow()).toBe("AUTHORIZATION_PENDING");
      clock.t += 1000;
      expect(await pollNow()).toBe("SLOW_DOWN"); // interval now 10 s
      clock.t += 6000;
      expect(await pollNow()).toBe("SLOW_DOWN"); // 6 s < 10 s: now 15 s
      clock.t += 15_000;
      expect(await pollNow()).toBe("AUTHORIZATION_PENDING");
      expect(await reasonOf(pollDeviceCode(devices, d.deviceCode, SHOP.clientId))).toBe("INVALID_GRANT");
    });
  });

  it("of racing polls after approval exactly one claims the tokens; a decision needs the person who signed in", async () => {
    await rig(async ({ stores, devices }) => {
      const d = await start(devices);
      const typed = ` ${d.userCode.replace("-", "").toLowerCase()} `;
      const found = await lookUpUserCode(devices, typed, "198.51.100.2");
      expect(found).toMatchObject({ found: true, userCode: d.userCode, scope: "profile", sourceId: "itv" });
      const hash = devices.hashUserCode(d.userCode.replace("-", ""));
      expect(await devices.store.signIn(hash, { userId: "u1", authTime: 1, sid: "s1" }, devices.now())).toBe(true);
      expect(await reasonOf(decideDevice(devices, { userCode: d.userCode, userId: "u2", approve: true }))).toBe(
        "DEVICE_CODE_INVALID",
      );
      await decideDevice(devices, { userCode: typed, userId: "u1", approve: true });
      expect(await reasonOf(decideDevice(devices, { userCode: d.userCode, userId: "u1", approve: false }))).toBe(
        "DEVICE_CODE_INVALID",
      );
      // Racing claims over separate connections (PostgreSQL): one row update wins.
      const other = deviceStore(await stores.anotherDb());
      const claims = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? other : devices.store).claim(`d:${d.deviceCode}`, devices.now())),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(claims.find(Boolean)).toMatchObject({ userId: "u1", sid: "s1", sourceId: "itv" });
      expect(await reasonOf(pollDeviceCode(devices, d.deviceCode, `${SHOP.clientId}_web`))).toBe("INVALID_GRANT");
    });
  });

  it("counts wrong user codes per client address (DEVICE_CODE_FAILURES_PER_ADDRESS)", async () => {
    await rig(async ({ devices }) => {
      const d = await start(devices);
      for (const wrong of ["BBBB-BBBB", "AEIOU123", ""])
        expect(await lookUpUserCode(devices, wrong, "203.0.113.9")).toEqual({ found: false });
      expect(await reasonOf(lookUpUserCode(devices, d.userCode, "203.0.113.9"))).toBe("RATE_LIMITED");
      expect(await lookUpUserCode(devices, d.userCode, "203.0.113.10")).toMatchObject({ found: true });
    });
  });

  it("refuses operator clients and scopes a device cannot have; the scope defaults to profile", async () => {
    await rig(async ({ devices }) => {
      const as = (client: unknown, scope = "") =>
        reasonOf(
          authorizeDevice({ clients, devices }, { client: client as never, scope, entrypointId: "", sourceId: "" }),
        );
      expect(await as(creds(OPERATOR))).toBe("UNAUTHORIZED_CLIENT");
      expect(await as(creds({ clientId: SHOP.clientId, secret: "wrong" }))).toBe("INVALID_CLIENT");
      expect(await as(creds(SHOP), "apps:write")).toBe("INVALID_SCOPE");
      expect(await as(creds(SHOP), "openid offline_access")).toBe("ok");
      expect(
        await reasonOf(
          authorizeDevice(
            { clients, devices },
            { client: publicCreds() as never, scope: "", entrypointId: "", sourceId: "bad id!" },
          ),
        ),
      ).toBe("INVALID_REQUEST");
    });
  });
});
