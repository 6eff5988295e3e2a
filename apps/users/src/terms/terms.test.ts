import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JsonObject } from "@bufbuild/protobuf";
import { UpdateMode } from "@gatehouse/proto";
import {
  backends,
  caller,
  catalogAssertion,
  failure,
  loggedIn,
  outcomeOf,
  startUsers,
  uniqueEmail,
  userObject,
  type Harness,
} from "../../test/harness.ts";

const PASSWORD = "correct horse battery";
const yes = { objectType: "assertion", value: true };
const no = { objectType: "assertion", value: false };

describe.each(backends)("legal assertions in the users service on %s", (_name, open) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startUsers(open);
    // Mandatory ones of another typology never stop these users (the entry points are `consumer`).
    h.catalog.push(
      catalogAssertion("tos", { mandatory: true }),
      catalogAssertion("pro-tos", { mandatory: true, typology: "pro" }),
    );
  });
  afterAll(async () => {
    await h.close();
  });

  const register = async (assertions: JsonObject = {}) => {
    const email = uniqueEmail();
    const res = await h.users.registerUser({
      caller: caller("open", { sourceId: "tablet" }),
      object: userObject(email, { datas: { surname: { objectType: "data", value: "Pérez" } }, assertions }),
    });
    return { email, id: res.user!.id, user: res.user! };
  };
  const login = (email: string, assertions?: JsonObject) =>
    h.users.loginUser({ caller: caller("open", { sourceId: "pc" }), email, password: PASSWORD, assertions });
  const history = async (userId: string) =>
    (
      await h.db.query<{
        key: string;
        version: string;
        value: boolean;
        via: string;
        source_id: string;
        client_id: string;
      }>(
        "SELECT key, version, value, via, source_id, client_id FROM users.assertion_acceptances WHERE user_id = $1 ORDER BY id",
        [userId],
      )
    ).rows;
  const setVersion = (key: string, version: string) => {
    const a = h.catalog.find((x) => x.key === key)!;
    a.version = version;
  };

  it("registration records the latest versions; an unknown key is a validation error", async () => {
    const { id, user } = await register({ terms: yes, newsletter: no });
    expect(user.assertions.terms).toMatchObject({ value: true, version: "1" });
    expect(user.assertions.newsletter).toMatchObject({ value: false, version: "1" });
    expect(await history(id)).toEqual([
      { key: "terms", version: "1", value: true, via: "register", source_id: "tablet", client_id: "100000000001_shop" },
      {
        key: "newsletter",
        version: "1",
        value: false,
        via: "register",
        source_id: "tablet",
        client_id: "100000000001_shop",
      },
    ]);
    const unknown = await failure(register({ nope: yes, "pro-tos": yes }));
    expect(unknown.reason).toBe("VALIDATION_FAILED");
    expect(unknown.violations.map((v) => `${v.field}:${v.code}`)).toEqual([
      "object.assertions.nope:unknown_key",
      "object.assertions.pro-tos:unknown_key",
    ]);
  });

  it("login stops at TermsRequired with every pending assertion and a terms token; answers sent with the login clear it", async () => {
    const { email, id } = await register({ terms: yes });
    const terms = outcomeOf(await login(email), "termsRequired");
    expect(terms.assertions.map((p) => `${p.key}@${p.version}:${p.mandatory}`)).toEqual([
      "newsletter@1:false",
      "tos@1:true",
    ]);
    expect(terms.assertions[1]).toMatchObject({
      displayName: { en: "Accept tos", es: "Acepta tos" },
      type: "terms",
      typology: "consumer",
      property: "default",
    });
    expect(terms.termsToken).toEqual(expect.any(String));

    // The answers are recorded only with the right password.
    expect(
      (
        await failure(
          h.users.loginUser({ caller: caller("open"), email, password: "wrong password!", assertions: { tos: yes } }),
        )
      ).reason,
    ).toBe("INVALID_CREDENTIALS");
    expect(await history(id)).toHaveLength(1);
    outcomeOf(await login(email, { tos: no }), "termsRequired");
    const ok = loggedIn(await login(email, { tos: yes, newsletter: no }));
    expect(ok.user?.assertions.tos).toMatchObject({ value: true, version: "1" });
    expect((await history(id)).map((r) => `${r.key}:${r.value}:${r.via}:${r.source_id}`)).toEqual([
      "terms:true:register:tablet",
      "tos:false:login:pc",
      "tos:true:login:pc",
      "newsletter:false:login:pc",
    ]);
    // Each recorded change of the answers is a user.updated event in the outbox (contract section 14), names only.
    const updates = await h.db.query<{ data: { user: { changed: string[] } } }>(
      "SELECT data FROM users.events WHERE type = 'user.updated' AND data->'user'->>'id' = $1 ORDER BY seq",
      [id],
    );
    expect(updates.rows.map((r) => r.data.user.changed)).toEqual([
      ["assertions.tos"],
      ["assertions.newsletter", "assertions.tos"],
    ]);
    // Re-sending the same answer to the same version records nothing.
    await login(email, { tos: yes });
    expect(await history(id)).toHaveLength(4);
    expect((await failure(login(email, { nope: yes }))).reason).toBe("VALIDATION_FAILED");

    // A new version of a mandatory assertion stops the login again; an optional one does not.
    setVersion("newsletter", "2");
    expect(loggedIn(await login(email)).user?.id).toBe(id);
    setVersion("tos", "2");
    try {
      const again = outcomeOf(await login(email), "termsRequired");
      expect(again.assertions.map((p) => `${p.key}@${p.version}`)).toEqual(["newsletter@2", "tos@2"]);
    } finally {
      setVersion("tos", "1");
      setVersion("newsletter", "1");
    }
  });

  it("the terms token: pending assertions, answers checked against the latest version, a mandatory one cannot be declined", async () => {
    const { email, id } = await register({ terms: yes });
    const token = outcomeOf(await login(email), "termsRequired").termsToken;
    const shown = (await h.users.getPendingTerms({ termsToken: token })).assertions;
    expect(shown.map((a) => a.key)).toEqual(["newsletter", "tos"]);
    expect(shown[1]).toMatchObject({
      version: "1",
      mandatory: true,
      displayName: { en: "Accept tos", es: "Acepta tos" },
      typology: "consumer",
    });

    const answer = (answers: { key: string; version: string; value: boolean }[]) =>
      h.users.answerTerms({ caller: caller("open", { sourceId: "unknown" }), termsToken: token, answers });
    const declined = await failure(answer([{ key: "tos", version: "1", value: false }]));
    expect(declined.reason).toBe("CONSTRAINT_VIOLATION");
    expect(declined.violations).toEqual([expect.objectContaining({ field: "assertions.tos.value", code: "required" })]);
    expect((await failure(answer([{ key: "tos", version: "0", value: true }]))).violations[0]?.code).toBe(
      "invalid_value",
    );
    expect((await failure(answer([{ key: "pro-tos", version: "1", value: true }]))).violations[0]?.code).toBe(
      "unknown_key",
    );
    expect(await history(id)).toHaveLength(1);

    const done = await answer([
      { key: "tos", version: "1", value: true },
      { key: "newsletter", version: "1", value: false },
    ]);
    expect(done.remaining).toEqual([]);
    expect((await history(id)).slice(1).map((r) => `${r.key}:${r.value}:${r.via}:${r.client_id}`)).toEqual([
      "tos:true:page:100000000001_shop",
      "newsletter:false:page:100000000001_shop",
    ]);
    expect(loggedIn(await login(email)).user?.id).toBe(id);
    expect((await failure(h.users.getPendingTerms({ termsToken: `${token.slice(0, -3)}AAA` }))).reason).toBe(
      "INVALID_CODE",
    );
  });

  it("patch and replace record the latest version; an unknown key is a 416", async () => {
    const { email, id } = await register({});
    const update = (mode: UpdateMode, object: JsonObject) =>
      h.users.updateUser({
        caller: caller("open", { sourceId: "mobile" }),
        mode,
        actorUserId: id,
        object: { objectType: "user", password: PASSWORD, ...object },
      });
    const bad = await failure(update(UpdateMode.PATCH, { assertions: { nope: yes } }));
    expect(bad.reason).toBe("CONSTRAINT_VIOLATION");
    expect(bad.violations).toEqual([expect.objectContaining({ field: "object.assertions.nope", code: "unknown_key" })]);
    const res = await update(UpdateMode.PATCH, { assertions: { tos: yes } });
    expect(res.changed).toBe(true);
    expect(res.user?.assertions.tos).toMatchObject({ value: true, version: "1" });
    expect((await update(UpdateMode.PATCH, { assertions: { tos: yes } })).changed).toBe(false);
    setVersion("tos", "3");
    try {
      const replaced = await update(UpdateMode.REPLACE, {
        ids: { email: { objectType: "user_id", value: email } },
        datas: { surname: { objectType: "data", value: "Pérez" } },
        assertions: { tos: yes },
      });
      expect(replaced.user?.assertions.tos).toMatchObject({ value: true, version: "3" });
    } finally {
      setVersion("tos", "1");
    }
    expect((await history(id)).map((r) => `${r.key}@${r.version}:${r.via}:${r.source_id}`)).toEqual([
      "tos@1:update:mobile",
      "tos@3:update:mobile",
    ]);
  });
});
