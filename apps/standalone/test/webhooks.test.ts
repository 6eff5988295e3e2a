import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpSteps } from "@gatehouse/testing";
import { totpCode } from "@gatehouse/users";
import { admin, audit } from "./admin-flows.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, PASSWORD, send, SOURCE } from "./user-flows.ts";
import { startReceiver, type Received, type Receiver } from "./webhook-receiver.ts";

// Contract section 14: events written with their change, delivered per
// Standard Webhooks (every delivery verified here with the standardwebhooks
// library), filtered, retried with the same webhook-id, switched off by a 410.
const HOOK_ENV = { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_BASE_MS: "100" };

async function addHook(s: TestStack, r: Receiver, body: Record<string, unknown> = {}) {
  const res = await admin(s, "POST", "/admin/v1/webhooks", { body: { url: r.url, events: ["*"], ...body } });
  expect(res.statusCode, res.body).toBe(201);
  const content = res.json().content;
  r.secrets.push(content.secret);
  return content as { id: string; secret: string; enabled: boolean };
}

const ofType = (got: Received[], type: string) => got.filter((g) => g.body.type === type);

type Delivery = { id: string; eventId: string; status: string; attempts: number; lastResponseCode: number | null };

/** An endpoint's delivery log once `done` holds of it (an attempt is recorded just after its answer arrives). */
async function deliveryLog(s: TestStack, hookId: string, done: (items: Delivery[]) => boolean): Promise<Delivery[]> {
  for (let i = 0; ; i++) {
    const items = (await admin(s, "GET", `/admin/v1/webhooks/${hookId}/deliveries?limit=200`)).json().content
      .items as Delivery[];
    if (done(items) || i > 100) return items;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each([
  ["the embedded default", true],
  ["PostgreSQL + Redis", false],
])("webhooks on %s", (_name, embedded) => {
  let s: TestStack;
  beforeAll(async () => {
    s = await startTestStack({ embedded, env: HOOK_ENV });
  });
  afterAll(() => s.close());

  it("delivers every event type, signed, with ids and changed field names and nothing secret", async () => {
    const r = await startReceiver();
    try {
      const hook = await addHook(s, r, { description: "everything" });
      expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const read = await admin(s, "GET", `/admin/v1/webhooks/${hook.id}`);
      expect(read.json().content).toMatchObject({ id: hook.id, url: r.url, events: ["*"], enabled: true });
      expect(read.body).not.toContain("whsec_");

      const app = await createApp(s, "hooked");
      expect(
        (await admin(s, "PATCH", `/admin/v1/apps/${app.id}`, { body: { displayName: "Hooked" } })).statusCode,
      ).toBe(200);
      const u = await loggedUser(s, app);
      const patch = (object: Record<string, unknown>) =>
        send(s, "PATCH", `/activityid/v1/user/update/${u.id}`, u.accessToken, app.entrypoint, {
          actor: { id: String(u.id), objectType: "person" },
          verb: "update",
          object: { objectType: "user", password: PASSWORD, ...object },
          source: SOURCE,
        });
      expect((await patch({ datas: { birthday: { objectType: "data", value: "1990-05-17" } } })).statusCode).toBe(200);
      const newPassword = "another fine passphrase";
      expect((await patch({ newPassword })).statusCode).toBe(200);
      const mfa = (url: string, body: unknown) => send(s, "POST", url, u.accessToken, app.entrypoint, body);
      const enrolled = await mfa("/activityid/v1/user/mfa/totp", {});
      const totpSecret = enrolled.json().content.totp.secret as string;
      const code = totpSteps((at) => totpCode(totpSecret, at)).fresh();
      expect((await mfa("/activityid/v1/user/mfa/totp/confirm", { code })).statusCode).toBe(200);
      expect((await admin(s, "POST", `/admin/v1/users/${u.id}/lock`)).statusCode).toBe(200);
      expect((await admin(s, "POST", `/admin/v1/users/${u.id}/unlock`)).statusCode).toBe(200);
      expect((await admin(s, "DELETE", `/admin/v1/users/${u.id}`)).statusCode).toBe(204);
      const rotated = await admin(s, "POST", `/admin/v1/apps/${app.id}/password/rotate`);
      expect(rotated.statusCode).toBe(200);

      const types = [
        "application.created",
        "application.updated",
        "user.created",
        "user.confirmed",
        "user.login",
        "user.updated",
        "user.password_changed",
        "user.mfa_enabled",
        "user.locked",
        "user.unlocked",
        "user.deleted",
        "application.password_rotated",
      ];
      await r.until((got) => types.every((t) => ofType(got, t).length > 0), "every event type");
      const mine = r.got.filter((g) => g.body.application === app.id || g.body.data.user?.id === String(u.id));
      for (const g of mine) {
        expect(g.verifiedWith, g.body.type).toBe(0);
        expect(g.id).toBe(g.body.id);
        expect(Object.keys(g.body).sort()).toEqual(["application", "data", "id", "time", "type"]);
        for (const secret of [
          PASSWORD,
          newPassword,
          app.password,
          code,
          totpSecret,
          u.accessToken,
          "$argon2",
          "whsec_",
        ])
          expect(g.raw, g.body.type).not.toContain(secret);
      }
      const user = { id: String(u.id), pulse_id: u.pulseId };
      const one = (type: string) => mine.find((g) => g.body.type === type)!.body;
      expect(one("user.created")).toMatchObject({ application: app.id, data: { user } });
      expect(one("user.confirmed").data).toEqual({ user: { ...user, changed: ["ids.email"] } });
      expect(one("user.login")).toMatchObject({ application: app.id, data: { user } });
      expect(one("user.updated").data).toEqual({ user: { ...user, changed: ["datas.birthday"] } });
      expect(one("user.password_changed").data).toEqual({ user });
      expect(one("user.mfa_enabled").data).toEqual({ user });
      expect(one("user.locked").data).toEqual({ user });
      expect(one("user.unlocked").data).toEqual({ user });
      expect(one("user.deleted").data).toEqual({ user });
      // Operators' actions name the application the user registered with (an endpoint filtered on it hears them).
      for (const type of ["user.locked", "user.unlocked", "user.deleted", "user.mfa_enabled"])
        expect(one(type).application, type).toBe(app.id);
      expect(one("application.created").data).toEqual({
        application: { client_id: app.id, entrypoints: [app.entrypoint] },
      });
      expect(one("application.updated").data).toEqual({ application: { client_id: app.id, changed: ["displayName"] } });
      expect(one("application.password_rotated").data.application).toMatchObject({ client_id: app.id });
      // Password changes report no user.updated of their own; one event per change.
      expect(ofType(mine, "user.updated")).toHaveLength(1);

      const ids = new Set(mine.map((g) => g.id));
      const log = await deliveryLog(s, hook.id, (items) =>
        items.filter((d) => ids.has(d.eventId)).every((d) => d.status !== "pending"),
      );
      const delivered = log.filter((d) => ids.has(d.eventId));
      expect(delivered.length).toBe(new Set(mine.map((g) => g.id)).size);
      for (const d of delivered)
        expect(d).toMatchObject({ status: "delivered", attempts: 1, lastResponseCode: 200, nextAttempt: null });
      expect((await audit(s, { action: "webhook.create", target: hook.id })).length).toBe(1);
      expect((await admin(s, "DELETE", `/admin/v1/webhooks/${hook.id}`)).statusCode).toBe(204);
    } finally {
      await r.close();
    }
  }, 120_000);

  it("filters by event type and application; a disabled endpoint gets nothing", async () => {
    const [a, b, off] = [await startReceiver(), await startReceiver(), await startReceiver()];
    try {
      const [one, two] = [await createApp(s, "filter1"), await createApp(s, "filter2")];
      await addHook(s, a, { events: ["user.created"], application: two.id });
      await addHook(s, b, { events: ["user.created", "user.login"] });
      const disabled = await addHook(s, off, { enabled: false });
      expect(disabled.enabled).toBe(false);
      const [u1, u2] = [await loggedUser(s, one), await loggedUser(s, two)];
      await b.until((got) => ofType(got, "user.login").length >= 2, "both logins");
      await new Promise((r) => setTimeout(r, 1500));
      expect(a.got.map((g) => [g.body.type, g.body.data.user.id])).toEqual([["user.created", String(u2.id)]]);
      const seen = b.got.filter((g) => [String(u1.id), String(u2.id)].includes(g.body.data.user.id));
      expect(new Set(seen.map((g) => g.body.type))).toEqual(new Set(["user.created", "user.login"]));
      expect(off.got).toEqual([]);
      for (const g of [...a.got, ...b.got]) expect(g.verifiedWith).toBe(0);
    } finally {
      await Promise.all([a.close(), b.close(), off.close()]);
    }
  }, 60_000);

  it("retries keep the webhook-id; a manual retry sends it again; a 410 switches the endpoint off", async () => {
    let failures = 2;
    const r = await startReceiver((g) => (g.body.type === "application.created" && failures-- > 0 ? 503 : 200));
    const gone = await startReceiver(() => 410);
    try {
      const hook = await addHook(s, r, { events: ["application.created"] });
      const goneHook = await addHook(s, gone, { events: ["application.created"] });
      const app = await createApp(s, "retried");
      await r.until((got) => got.some((g) => g.status === 200 && g.body.application === app.id), "the third try");
      const tries = r.got.filter((g) => g.body.application === app.id);
      expect(tries.map((t) => t.status)).toEqual([503, 503, 200]);
      expect(new Set(tries.map((t) => t.id)).size).toBe(1);
      for (const t of tries) expect(t.verifiedWith).toBe(0);
      const log = await deliveryLog(s, hook.id, (items) =>
        items.some((x) => x.eventId === tries[0]!.id && x.status !== "pending"),
      );
      const d = log.find((x) => x.eventId === tries[0]!.id)!;
      expect(d).toMatchObject({ type: "application.created", status: "delivered", attempts: 3, lastResponseCode: 200 });

      const again = await admin(s, "POST", `/admin/v1/webhooks/${hook.id}/deliveries/${d.id}/retry`);
      expect(again.statusCode).toBe(200);
      expect(again.json().content.status).toBe("pending");
      await r.until((got) => got.filter((g) => g.id === tries[0]!.id).length === 4, "the manual retry");
      expect((await audit(s, { action: "webhook.retry_delivery", target: hook.id })).length).toBe(1);

      await gone.until((got) => got.length >= 1, "the 410");
      await deliveryLog(s, goneHook.id, (items) => items[0]?.status === "failed");
      const off = (await admin(s, "GET", `/admin/v1/webhooks/${goneHook.id}`)).json().content;
      expect(off).toMatchObject({ enabled: false, disabledReason: "gone" });
      const goneLog = (await admin(s, "GET", `/admin/v1/webhooks/${goneHook.id}/deliveries`)).json().content.items;
      expect(goneLog[0]).toMatchObject({ status: "failed", attempts: 1, lastResponseCode: 410 });
      await createApp(s, "after-gone");
      await new Promise((res) => setTimeout(res, 1500));
      expect(gone.got).toHaveLength(1);
    } finally {
      await Promise.all([r.close(), gone.close()]);
    }
  }, 60_000);

  it("a rotated secret signs beside the old one; either verifies", async () => {
    const r = await startReceiver();
    try {
      const hook = await addHook(s, r, { events: ["application.created"] });
      const res = await admin(s, "POST", `/admin/v1/webhooks/${hook.id}/secret/rotate`);
      expect(res.statusCode).toBe(200);
      const fresh = res.json().content.secret as string;
      expect(fresh).not.toBe(hook.secret);
      expect(res.json().content.previousSecretExpires).toEqual(expect.any(String));
      r.secrets.splice(0, 1, fresh); // only the new one
      await createApp(s, "rotated");
      await r.until((got) => got.length >= 1, "a delivery");
      expect(r.got[0]!.verifiedWith).toBe(0);
      expect(r.got[0]!.signature.split(" ")).toHaveLength(2);
      r.secrets.splice(0, 1, hook.secret); // only the old one
      await createApp(s, "rotated2");
      await r.until((got) => got.length >= 2, "a second delivery");
      expect(r.got[1]!.verifiedWith).toBe(0);
    } finally {
      await r.close();
    }
  }, 60_000);
});
