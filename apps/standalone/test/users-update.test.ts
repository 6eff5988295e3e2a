import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import {
  createApp,
  loggedUser,
  loginEnvelope,
  outboxLinks,
  PASSWORD,
  send,
  SOURCE,
  type FlowApp,
  type LoggedUser,
} from "./user-flows.ts";

// Replace (POST /activityid/v1/user/update) and patch (PATCH .../update/{object_id}
// and .../update/pulse-id/{pulse_id}) through the gateway, every status of the
// spec's table but 428 (MFA, issue 4).
describe.each([
  ["PostgreSQL + Redis + BullMQ", false],
  ["the embedded default", true],
])("replace and patch on %s", (_name, embedded) => {
  let s: TestStack;
  let app: FlowApp;
  let other: FlowApp;
  beforeAll(async () => {
    s = await startTestStack({ embedded });
    app = await createApp(s);
    other = await createApp(s, "other");
  });
  afterAll(() => s.close());

  const data = (value: string | null) => ({ objectType: "data", value });
  const patchBody = (
    actorId: string | number,
    object: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ) => ({
    actor: { id: String(actorId), objectType: "person" },
    verb: "update",
    object: { objectType: "user", password: PASSWORD, ...object },
    source: SOURCE,
    ...extra,
  });
  const patch = (
    u: LoggedUser,
    object: Record<string, unknown>,
    opts: {
      path?: string;
      token?: string;
      from?: string;
      extra?: Record<string, unknown>;
      headers?: Record<string, string | undefined>;
    } = {},
  ) =>
    send(
      s,
      "PATCH",
      opts.path ?? `/activityid/v1/user/update/${u.id}`,
      opts.token ?? u.accessToken,
      opts.from ?? app.entrypoint,
      patchBody(u.id, object, opts.extra),
      opts.headers,
    );
  const replaceBody = (object: Record<string, unknown>, actorId = app.id) => ({
    actor: { id: actorId, objectType: "application" },
    verb: "create",
    object: { objectType: "user", password: PASSWORD, assertions: {}, ...object },
    source: SOURCE,
  });

  it("200 with content.user when something changed, 304 with no body when nothing would", async () => {
    const u = await loggedUser(s, app);
    const res = await patch(u, { datas: { birthday: data("1990-05-17") } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(typeof u.id).toBe("number");
    expect(body.result.status).toBe(200);
    expect(body.content.user).toMatchObject({ id: u.id, pulse_id: u.pulseId, objectType: "user" });
    expect(body.content.user.datas).toEqual({
      name: { objectType: "data", value: "Ana" },
      birthday: { objectType: "data", value: "1990-05-17" },
    });
    const same = await patch(u, { datas: { birthday: data("1990-05-17") } });
    expect(same.statusCode).toBe(304);
    // actor.id as login answers it (a JSON number) is the same person.
    const numeric = await send(s, "PATCH", `/activityid/v1/user/update/${u.id}`, u.accessToken, app.entrypoint, {
      ...patchBody(u.id, { datas: { birthday: data("1990-05-18") } }),
      actor: { id: u.id, objectType: "person" },
    });
    expect(numeric.statusCode).toBe(200);
    expect(same.body).toBe("");
    // By pulse_id, with null removing the optional field.
    const byPulse = await send(
      s,
      "PATCH",
      `/activityid/v1/user/update/pulse-id/${u.pulseId}`,
      u.accessToken,
      app.entrypoint,
      patchBody(u.pulseId, { datas: { birthday: null } }),
    );
    expect(byPulse.json().content.user.datas.name.value).toBe("Ana");
    expect(byPulse.statusCode).toBe(200);
    expect(byPulse.json().content.user.datas.birthday).toBeUndefined();
  });

  it("206 for a changed confirmed email: the old value stays active until the emailed link confirms the new one", async () => {
    const u = await loggedUser(s, app);
    const next = `n${Date.now()}@example.com`;
    const res = await patch(
      u,
      { ids: { email: { objectType: "user_id", value: next } }, datas: { birthday: data("2001-01-01") } },
      {
        extra: { context: { url: "https://shop.example.com/callback" } },
      },
    );
    expect(res.statusCode).toBe(206);
    const body = res.json();
    expect(body.result.status).toBe(206);
    expect(body.errors.items).toEqual([
      expect.objectContaining({ field: "object.ids.email.value", code: "confirmation_pending" }),
    ]);
    expect(typeof body.errors.message).toBe("string");
    expect(body.content.user.ids.email).toMatchObject({ value: u.email, confirmed: true, pending: { value: next } });
    expect(body.content.user.datas.birthday.value).toBe("2001-01-01");
    expect(
      (await send(s, "POST", "/activityid/v1/user/access", app.token, app.entrypoint, loginEnvelope(app, u.email)))
        .statusCode,
    ).toBe(200);

    const [link] = await outboxLinks(s, next);
    const confirmed = await s.app.inject({ method: "GET", url: `/activityid/v1/user/confirm?token=${link}` });
    expect(confirmed.statusCode).toBe(302);
    // The application's redirect URIs start its whitelist.
    expect(confirmed.headers.location).toBe("https://shop.example.com/callback");
    const login = await send(
      s,
      "POST",
      "/activityid/v1/user/access",
      app.token,
      app.entrypoint,
      loginEnvelope(app, next),
    );
    expect(login.statusCode).toBe(200);
    expect(login.json().content.user.ids.email).toMatchObject({ value: next, confirmed: true });
  });

  it("a context.url off the whitelist lands on the default callback", async () => {
    const u = await loggedUser(s, app);
    const next = `w${Date.now()}@example.com`;
    const res = await patch(
      u,
      { ids: { email: { objectType: "user_id", value: next } } },
      { extra: { context: { url: "https://evil.example.net/steal" } } },
    );
    expect(res.statusCode).toBe(206);
    const [link] = await outboxLinks(s, next);
    const confirmed = await s.app.inject({ method: "GET", url: `/activityid/v1/user/confirm?token=${link}` });
    expect(confirmed.headers.location).toBe("http://gatehouse.test/activityid/v1/user/confirmed");
  });

  it("400 for a malformed envelope: wrong verb, actor.id other than the path, unknown members", async () => {
    const u = await loggedUser(s, app);
    const cases = [
      { ...patchBody(u.id, { datas: {} }), verb: "create" },
      patchBody("1234", { datas: {} }),
      { ...patchBody(u.id, { datas: {} }), actor: { id: String(u.id), objectType: "application" } },
      patchBody(u.id, { datas: {}, colour: "blue" }),
    ];
    for (const body of cases) {
      const res = await send(s, "PATCH", `/activityid/v1/user/update/${u.id}`, u.accessToken, app.entrypoint, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors.items.length).toBeGreaterThan(0);
    }
    const replace = await send(
      s,
      "POST",
      "/activityid/v1/user/update",
      u.accessToken,
      app.entrypoint,
      replaceBody({ ids: {}, datas: {} }, "999"),
    );
    expect(replace.statusCode).toBe(400);
    expect(replace.json().errors.items[0].field).toBe("actor.id");
    // A wrong verb and an actor.id other than the path: both listed at once.
    const both = await send(s, "PATCH", `/activityid/v1/user/update/${u.id}`, u.accessToken, app.entrypoint, {
      ...patchBody("1234", { datas: {} }),
      verb: "create",
    });
    expect(both.statusCode).toBe(400);
    expect(
      both
        .json()
        .errors.items.map((i: { field: string }) => i.field)
        .sort(),
    ).toEqual(["actor.id", "verb"]);
  });

  it("401 without the user's token (none, an APP_TOKEN, garbage)", async () => {
    const u = await loggedUser(s, app);
    for (const token of ["", app.token, "not-a-jwt"]) {
      const res = await patch(
        u,
        { datas: { birthday: data("2000-01-01") } },
        token ? { token } : { headers: { authorization: undefined } },
      );
      expect(res.statusCode).toBe(401);
      expect(res.json().result.status).toBe(401);
    }
  });

  it("403 for a wrong password, another user's id, or a From that is not an entry point of the token's application", async () => {
    const u = await loggedUser(s, app);
    const v = await loggedUser(s, app);
    const wrong = await patch(u, { password: "not the password", datas: { birthday: data("2000-01-01") } });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().errors.code).toBe("invalid_credentials");
    const notYours = await send(
      s,
      "PATCH",
      `/activityid/v1/user/update/${v.id}`,
      u.accessToken,
      app.entrypoint,
      patchBody(v.id, { datas: { birthday: data("2000-01-01") } }),
    );
    expect(notYours.statusCode).toBe(403);
    const foreignFrom = await patch(u, { datas: { birthday: data("2000-01-01") } }, { from: other.entrypoint });
    expect(foreignFrom.statusCode).toBe(403);
    const unknownFrom = await patch(u, { datas: { birthday: data("2000-01-01") } }, { from: "nope" });
    expect(unknownFrom.statusCode).toBe(403);
  });

  it("404 for an unknown object_id or pulse_id", async () => {
    const u = await loggedUser(s, app);
    const res = await send(
      s,
      "PATCH",
      "/activityid/v1/user/update/1234567890123456",
      u.accessToken,
      app.entrypoint,
      patchBody("1234567890123456", { datas: {} }),
    );
    expect(res.statusCode).toBe(404);
    const pulse = "0".repeat(32);
    const byPulse = await send(
      s,
      "PATCH",
      `/activityid/v1/user/update/pulse-id/${pulse}`,
      u.accessToken,
      app.entrypoint,
      patchBody(pulse, { datas: {} }),
    );
    expect(byPulse.statusCode).toBe(404);
  });

  it("416 for rule violations, naming each field; nothing is applied", async () => {
    const u = await loggedUser(s, app);
    const v = await loggedUser(s, app);
    const res = await patch(u, {
      ids: {
        email: { objectType: "user_id", value: "not-an-email" },
        national_id: { objectType: "user_id", value: "X1" },
      },
      datas: { shoe_size: data("42"), surname: data("Pérez"), birthday: data("31/12/1999") },
    });
    expect(res.statusCode).toBe(416);
    const body = res.json();
    expect(body.result.status).toBe(416);
    expect(body.errors.items.map((i: { field: string; code: string }) => `${i.field}:${i.code}`).sort()).toEqual([
      "object.datas.birthday.value:invalid_format",
      "object.datas.shoe_size:unknown_key",
      "object.datas.surname:not_in_entrypoint",
      "object.ids.email.value:invalid_format",
      "object.ids.national_id:not_in_entrypoint",
    ]);
    // A key of the catalog that this entry point lacks is told from a key that exists nowhere (issue 14).
    const item = (field: string) => body.errors.items.find((i: { field: string }) => i.field === field);
    expect(item("object.datas.surname").message).toBe("This key is not one of the entry point's fields.");
    expect(item("object.datas.shoe_size").message).toBe("This key is not in the operator's catalog.");
    expect(body.errors.details).toContain(
      "object.datas.surname: not_in_entrypoint (not one of this entry point's data fields (name, birthday))",
    );
    expect(body.errors.details).toContain(
      "object.datas.shoe_size: unknown_key (not in the operator's data-field catalog)",
    );
    const removeConfirmed = await patch(u, { ids: { email: null } });
    expect(removeConfirmed.statusCode).toBe(416);
    expect(removeConfirmed.json().errors.items[0]).toMatchObject({
      field: "object.ids.email.value",
      code: "confirmed_identifier",
    });
    const taken = await patch(u, { ids: { email: { objectType: "user_id", value: v.email } } });
    expect(taken.statusCode).toBe(416);
    expect(taken.json().errors.items[0]).toMatchObject({ field: "object.ids.email.value", code: "duplicate" });
    // sc=true: one item.
    const single = await patch(
      u,
      { datas: { shoe_size: data("42"), hat_size: data("7") } },
      { path: `/activityid/v1/user/update/${u.id}?sc=true` },
    );
    expect(single.json().errors.items).toHaveLength(1);
  });

  it("replace: what is not sent is removed; 200, then 304 for the same document", async () => {
    const u = await loggedUser(s, app);
    await patch(u, {
      datas: { birthday: data("1990-01-01") },
      ids: { phone_number: { objectType: "user_id", value: "+34600000777" } },
    });
    const doc = { ids: { email: { objectType: "user_id", value: u.email } }, datas: { name: data("Eva") } };
    const res = await send(s, "POST", "/activityid/v1/user/update", u.accessToken, app.entrypoint, replaceBody(doc));
    expect(res.statusCode).toBe(200);
    const user = res.json().content.user;
    expect(user.datas).toEqual({ name: { objectType: "data", value: "Eva" } });
    expect(user.ids.phone_number).toBeUndefined();
    expect(
      (await send(s, "POST", "/activityid/v1/user/update", u.accessToken, app.entrypoint, replaceBody(doc))).statusCode,
    ).toBe(304);
    const missing = await send(
      s,
      "POST",
      "/activityid/v1/user/update",
      u.accessToken,
      app.entrypoint,
      replaceBody({ ids: doc.ids, datas: {} }),
    );
    expect(missing.statusCode).toBe(416);
  });

  it("a weak new password (section 17: common, or holding the email's local part) is 416 password_weak naming object.newPassword", async () => {
    const u = await loggedUser(s, app);
    const weak = await patch(u, { newPassword: "Password1" });
    expect(weak.statusCode).toBe(416);
    expect(weak.json().errors).toMatchObject({
      code: "password_weak",
      items: [{ field: "object.newPassword", code: "password_weak" }],
    });
    const local = await patch(u, { newPassword: `${u.email.split("@")[0]}-2024` });
    expect(local.statusCode).toBe(416);
    expect(local.json().errors.code).toBe("password_weak");
  });

  it("a new password applies to the next login; the old one stops working", async () => {
    const u = await loggedUser(s, app);
    const res = await patch(u, { newPassword: "another fine passphrase" });
    expect(res.statusCode).toBe(200);
    expect(
      (
        await send(
          s,
          "POST",
          "/activityid/v1/user/access",
          app.token,
          app.entrypoint,
          loginEnvelope(app, u.email, "another fine passphrase"),
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (await send(s, "POST", "/activityid/v1/user/access", app.token, app.entrypoint, loginEnvelope(app, u.email)))
        .statusCode,
    ).toBe(403);
  });

  it("406 when Accept excludes JSON; 415 for a body that is not JSON; 400 without From", async () => {
    const u = await loggedUser(s, app);
    const html = await patch(u, { datas: {} }, { headers: { accept: "text/html" } });
    expect(html.statusCode).toBe(406);
    expect(html.json().errors.code).toBe("not_acceptable");
    const text = await patch(u, { datas: {} }, { headers: { "content-type": "text/plain" } });
    expect(text.statusCode).toBe(415);
    // From is required (the entry point).
    const noFrom = await patch(u, { datas: {} }, { headers: { from: undefined } });
    expect(noFrom.statusCode).toBe(400);
    expect(noFrom.json().errors.items[0].field).toBe("headers.from");
  });
});
