import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, createClient, type Client } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@gatehouse/logging";
import { ConfirmationDeliveryService, DeliveryDecision, UsersService } from "@gatehouse/proto";
import {
  authnInterceptor,
  callerInterceptors,
  inProcessTransport,
  InternalTokens,
  observeInterceptor,
} from "@gatehouse/rpc";
import { backends, caller, failure, startUsers, uniqueEmail, userObject, type Harness } from "../../test/harness.ts";
import { issueConfirmation } from "../confirmation/issue.ts";
import { DEFAULT_CONFIRMATION_OPTIONS } from "../confirmation/options.ts";
import { createUsers } from "../index.ts";
import { storesOver } from "../stores.ts";

// CheckDelivery through the users module's real routes, policy and interceptors,
// as the confirmation worker calls it from its own process.
describe.each(backends)("ConfirmationDeliveryService on %s", (_name, open) => {
  let h: Harness;
  let deliveries: Client<typeof ConfirmationDeliveryService>;
  beforeAll(async () => {
    h = await startUsers(open);
    const logger = createLogger("users-test", "silent");
    const mod = await createUsers({
      db: h.db,
      kv: h.kv,
      keys: h.keys,
      logger,
      entrypoints: async () => undefined,
      grants: h.grants,
      enqueue: async () => undefined,
    });
    const internal = new InternalTokens(h.keys);
    const server = [observeInterceptor(logger, mod.name), authnInterceptor({ policy: mod.policy, internal })];
    deliveries = createClient(
      ConfirmationDeliveryService,
      inProcessTransport(mod.routes, server, callerInterceptors(internal, "confirmation-worker")),
    );
  });
  afterAll(async () => {
    await h.close();
  });

  const check = (deliveryId: string, enqueuedAt = Date.now(), attempt = 1) =>
    deliveries.checkDelivery({ deliveryId, enqueueTime: timestampFromMs(enqueuedAt), attempt }).then((r) => r.decision);

  async function registered() {
    const email = uniqueEmail();
    const res = await h.users.registerUser({ caller: caller("web"), object: userObject(email) });
    return { email, userId: res.user!.id, ...h.lastDelivery(email) };
  }

  it("answers SEND for a committed, live confirmation and DROP once it is used", async () => {
    const { userId, job, secrets } = await registered();
    expect(await check(job.deliveryId)).toBe(DeliveryDecision.SEND);
    // Still SEND on a retry long after the enqueue: the row exists, the grace period does not apply.
    expect(await check(job.deliveryId, Date.now() - 10 * 60_000, 4)).toBe(DeliveryDecision.SEND);
    await h.users.confirmIdentifier({ userId, key: "email", code: secrets.code });
    expect(await check(job.deliveryId)).toBe(DeliveryDecision.DROP);
  });

  it("answers DROP for a superseded or expired confirmation", async () => {
    const superseded = (await registered()).job.deliveryId;
    const expired = (await registered()).job.deliveryId;
    expect(await check(superseded)).toBe(DeliveryDecision.SEND);
    expect(await check(expired)).toBe(DeliveryDecision.SEND);
    await h.db.query("UPDATE users.confirmations SET superseded_at = now() WHERE id = $1", [superseded]);
    await h.db.query("UPDATE users.confirmations SET expires_at = now() - interval '1 second' WHERE id = $1", [
      expired,
    ]);
    expect(await check(superseded)).toBe(DeliveryDecision.DROP);
    expect(await check(expired)).toBe(DeliveryDecision.DROP);
  });

  it("answers WAIT for a rolled-back delivery while it is young, then DROP", async () => {
    const { userId, email } = await registered();
    const enqueued: (typeof h.jobs)[number][] = [];
    const deps = {
      keys: h.keys,
      enqueue: async (j: (typeof h.jobs)[number]) => void enqueued.push(j),
      options: DEFAULT_CONFIRMATION_OPTIONS,
    };
    const rolledBack = h.db.tx(async (q) => {
      await issueConfirmation(storesOver(q, deps.enqueue), deps, {
        userId,
        key: "email",
        value: email,
        purpose: "resend",
        locale: "en",
      });
      throw new Error("the change fails after the enqueue");
    });
    await expect(rolledBack).rejects.toThrow(/after the enqueue/);
    const ghost = enqueued[0]!.deliveryId;
    expect(await check(ghost)).toBe(DeliveryDecision.WAIT);
    expect(await check(ghost, Date.now() - 120_000, 3)).toBe(DeliveryDecision.DROP);
  });

  it("answers WAIT for an unknown young delivery (its transaction may still commit) and DROP once it is old", async () => {
    const unknown = "f".repeat(32);
    expect(await check(unknown)).toBe(DeliveryDecision.WAIT);
    expect(await check(unknown, Date.now() - 120_000, 3)).toBe(DeliveryDecision.DROP);
  });

  it("refuses a request without a delivery id or enqueue time, and an unauthenticated caller", async () => {
    const bad = await failure(deliveries.checkDelivery({ deliveryId: "", attempt: 1 }));
    expect(bad.code).toBe(Code.InvalidArgument);
    expect(bad.reason).toBe("VALIDATION_FAILED");
    expect(bad.violations.map((v) => [v.field, v.code])).toEqual([
      ["deliveryId", "required"],
      ["enqueueTime", "required"],
    ]);
    const anon = await failure(
      deliveries.checkDelivery(
        { deliveryId: "x", enqueueTime: timestampFromMs(Date.now()) },
        { headers: { authorization: "Bearer not-a-token" } },
      ),
    );
    expect(anon.code).toBe(Code.Unauthenticated);
  });

  it("gives every method of both services of the module a policy, with no shared local name", async () => {
    const mod = await createUsers({
      db: h.db,
      kv: h.kv,
      keys: h.keys,
      logger: createLogger("t", "silent"),
      entrypoints: async () => undefined,
      grants: h.grants,
      enqueue: async () => undefined,
    });
    const names = [...UsersService.methods, ...ConfirmationDeliveryService.methods].map((m) => m.localName);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(mod.policy[n], n).toEqual(["internal"]);
  });
});
