import { decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runEntry } from "./processes.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";

// `npm run cli -- rotate-signing-keys` against the database of a running
// server (PostgreSQL): the next key, already in the JWKS, starts signing; the
// key in use keeps verifying until its tokens have expired.
describe("rotate-signing-keys (CLI)", () => {
  let s: TestStack;
  beforeAll(async () => {
    s = await startTestStack();
  });
  afterAll(() => s.close());

  const jwks = async () =>
    (await s.app.inject({ method: "GET", url: "/oauth2/jwks" })).json().keys as { kid: string; alg: string }[];
  const token = async () =>
    (
      await s.app.inject({
        method: "POST",
        url: "/oauth2/token",
        headers: {
          authorization: s.basic("test-operator", "operator-secret-0123456789"),
          "content-type": "application/x-www-form-urlencoded",
        },
        payload: "grant_type=client_credentials&scope=apps:read",
      })
    ).json().access_token as string;
  const active = async (t: string) =>
    (
      await s.app.inject({
        method: "POST",
        url: "/oauth2/introspect",
        headers: {
          authorization: s.basic("test-operator", "operator-secret-0123456789"),
          "content-type": "application/x-www-form-urlencoded",
        },
        payload: `token=${t}`,
      })
    ).json().active as boolean;

  it("promotes the published next key, keeps the old one verifying, and prints what it did", async () => {
    const [current, next] = await jwks();
    expect(current!.alg).toBe("RS256");
    const before = await token();
    expect(decodeProtectedHeader(before).kid).toBe(current!.kid);

    const cli = await runEntry("cli", ["rotate-signing-keys"], {
      DATABASE_URL: s.config.databaseUrl!,
      SECRET_KEY: s.config.secretKey!,
      DATA_DIR: s.config.dataDir,
      PUBLIC_URL: s.config.publicAuthUrl,
      LOG_LEVEL: "warn",
    });
    expect(await new Promise((r) => cli.once("exit", r))).toBe(0);
    const printed = JSON.parse(cli.output().trim().split("\n").pop()!);
    expect(printed).toMatchObject({ alg: "RS256", active: next!.kid, retiring: [current!.kid] });
    expect(printed.next).toEqual(expect.any(String));

    const rows = (await s.stores.db.query<{ kid: string; status: string }>("SELECT kid, status FROM auth.signing_keys"))
      .rows;
    expect(Object.fromEntries(rows.map((r) => [r.kid, r.status]))).toEqual({
      [current!.kid]: "retiring",
      [next!.kid]: "active",
      [printed.next]: "next",
    });
    // Tokens of the old key still verify; the running server follows the rotation on its next reload.
    expect(await active(before)).toBe(true);
    expect(await active(await token())).toBe(true);
  });
});
