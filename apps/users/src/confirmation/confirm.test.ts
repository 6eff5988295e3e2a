import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  backends,
  caller,
  failure,
  startUsers,
  uniqueEmail,
  userObject,
  type Harness,
  loggedIn,
} from "../../test/harness.ts";
import { issueConfirmation } from "./issue.ts";
import { DEFAULT_CONFIRMATION_OPTIONS } from "./options.ts";
import { confirmationStillWanted } from "../delivery/still-wanted.ts";
import { deliveryStore } from "../delivery/store.ts";
import { storesOver } from "../stores.ts";

const PASSWORD = "correct horse battery";

describe.each(backends)("confirmation on %s", (_name, open) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startUsers(open);
  });
  afterAll(async () => {
    await h.close();
  });

  async function registered() {
    const email = uniqueEmail();
    const res = await h.users.registerUser({ caller: caller("web"), object: userObject(email) });
    return { email, userId: res.user!.id, ...h.lastDelivery(email) };
  }

  it("confirms by code; the user can then log in; the code works once", async () => {
    const { email, userId, secrets } = await registered();
    const res = await h.users.confirmIdentifier({ userId, key: "email", code: secrets.code });
    expect(res.user?.ids.email).toMatchObject({ value: email, confirmed: true });
    expect(res.redirectUrl).toBe("");
    const login = loggedIn(await h.users.loginUser({ caller: caller("web"), email, password: PASSWORD }));
    expect(login.user?.id).toBe(userId);
    const again = await failure(h.users.confirmIdentifier({ userId, key: "email", code: secrets.code }));
    expect(again.code).toBe(Code.InvalidArgument);
    expect(again.reason).toBe("INVALID_CODE");
  });

  it("confirms by link token, once", async () => {
    const { email, secrets } = await registered();
    const res = await h.users.confirmIdentifier({ linkToken: secrets.linkToken });
    expect(res.user?.ids.email).toMatchObject({ value: email, confirmed: true });
    expect((await failure(h.users.confirmIdentifier({ linkToken: secrets.linkToken }))).reason).toBe("INVALID_CODE");
    expect((await failure(h.users.confirmIdentifier({ linkToken: "x".repeat(43) }))).reason).toBe("INVALID_CODE");
  });

  it("a code of another user does not confirm", async () => {
    const a = await registered();
    const b = await registered();
    const err = await failure(
      h.users.confirmIdentifier({
        userId: b.userId,
        key: "email",
        code: a.secrets.code === b.secrets.code ? "000000" : a.secrets.code,
      }),
    );
    expect(err.reason).toBe("INVALID_CODE");
  });

  it("expired codes and links do not confirm", async () => {
    const { userId, secrets } = await registered();
    await h.db.query("UPDATE users.confirmations SET expires_at = now() - interval '1 second' WHERE user_id = $1", [
      userId,
    ]);
    expect((await failure(h.users.confirmIdentifier({ userId, key: "email", code: secrets.code }))).reason).toBe(
      "INVALID_CODE",
    );
    expect((await failure(h.users.confirmIdentifier({ linkToken: secrets.linkToken }))).reason).toBe("INVALID_CODE");
    const user = await h.users.getUser({ userId });
    expect(user.user?.ids.email?.confirmed).toBe(false);
  });

  it("five wrong tries kill the confirmation, even for the right code and the link", async () => {
    const { userId, secrets } = await registered();
    const wrong = secrets.code === "111111" ? "222222" : "111111";
    const left: string[] = [];
    for (let i = 0; i < 5; i++)
      left.push(
        (await failure(h.users.confirmIdentifier({ userId, key: "email", code: wrong }))).metadata.attempts_left ?? "",
      );
    expect(left).toEqual(["4", "3", "2", "1", "0"]);
    expect((await failure(h.users.confirmIdentifier({ userId, key: "email", code: secrets.code }))).reason).toBe(
      "INVALID_CODE",
    );
    expect((await failure(h.users.confirmIdentifier({ linkToken: secrets.linkToken }))).reason).toBe("INVALID_CODE");
  });

  it("16 parallel uses of one code: exactly one success", async () => {
    const { userId, secrets } = await registered();
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, () => h.users.confirmIdentifier({ userId, key: "email", code: secrets.code })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results)
      if (r.status === "rejected") expect((await failure(Promise.reject(r.reason))).reason).toBe("INVALID_CODE");
  });

  it("16 parallel uses of one link: exactly one success", async () => {
    const { secrets } = await registered();
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, () => h.users.confirmIdentifier({ linkToken: secrets.linkToken })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("a confirmed pending replacement becomes the active value; older codes are superseded", async () => {
    const { email, userId, secrets: first } = await registered();
    await h.users.confirmIdentifier({ userId, key: "email", code: first.code });
    const next = uniqueEmail();
    await h.db.query(
      "UPDATE users.identifiers SET pending_value = $3, pending_requested_at = now() WHERE user_id = $1 AND key = $2",
      [userId, "email", next],
    );
    const pending = await h.users.getUser({ userId });
    expect(pending.user?.ids.email).toMatchObject({ value: email, confirmed: true, pending: { value: next } });
    expect(pending.user?.ids.email?.pending?.requestTime).toBeDefined();

    const deps = {
      keys: h.keys,
      enqueue: async (j: (typeof h.jobs)[number]) => void h.jobs.push(j),
      options: DEFAULT_CONFIRMATION_OPTIONS,
    };
    await h.db.tx((q) =>
      issueConfirmation(storesOver(q, deps.enqueue), deps, {
        userId,
        key: "email",
        value: next,
        purpose: "change",
        locale: "en",
        contextUrl: "https://shop.example.com/done",
      }),
    );
    const older = h.lastDelivery(next).secrets;
    await h.db.tx((q) =>
      issueConfirmation(storesOver(q, deps.enqueue), deps, {
        userId,
        key: "email",
        value: next,
        purpose: "change",
        locale: "en",
        contextUrl: "https://shop.example.com/done",
      }),
    );
    const latest = h.lastDelivery(next).secrets;
    expect((await failure(h.users.confirmIdentifier({ linkToken: older.linkToken }))).reason).toBe("INVALID_CODE");

    const res = await h.users.confirmIdentifier({ linkToken: latest.linkToken });
    expect(res.redirectUrl).toBe("https://shop.example.com/done");
    expect(res.user?.ids.email).toMatchObject({ value: next, confirmed: true });
    expect(res.user?.ids.email?.pending).toBeUndefined();
    expect((await failure(h.users.loginUser({ caller: caller("web"), email, password: PASSWORD }))).reason).toBe(
      "INVALID_CREDENTIALS",
    );
    expect(loggedIn(await h.users.loginUser({ caller: caller("web"), email: next, password: PASSWORD })).user?.id).toBe(
      userId,
    );
  });

  it("tells the worker to send live deliveries, wait for uncommitted ones and drop used ones", async () => {
    const stillWanted = confirmationStillWanted(deliveryStore(h.db));
    const { userId, job, secrets } = await registered();
    expect(await stillWanted(job.deliveryId, { attempt: 1, enqueuedAt: Date.now() })).toBe("send");
    expect(await stillWanted("f".repeat(32), { attempt: 1, enqueuedAt: Date.now() })).toBe("wait");
    expect(await stillWanted("f".repeat(32), { attempt: 3, enqueuedAt: Date.now() - 120_000 })).toBe("drop");
    await h.users.confirmIdentifier({ userId, key: "email", code: secrets.code });
    expect(await stillWanted(job.deliveryId, { attempt: 2, enqueuedAt: Date.now() })).toBe("drop");
  });
});
