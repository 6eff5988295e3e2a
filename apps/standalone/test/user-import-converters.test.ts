import { execFile } from "node:child_process";
import { pbkdf2Sync, randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import bcrypt from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIREBASE, importDone, PASSWORD } from "./import-flows.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, loginEnvelope, send, type FlowApp } from "./user-flows.ts";

// scripts/convert-users.mjs on sample exports in each provider's documented
// form (Auth0's password-hash export, `firebase auth:export`, Keycloak's
// realm export), imported, and every user logs in with the old password.
const SCRIPT = fileURLToPath(new URL("../../../scripts/convert-users.mjs", import.meta.url));
const run = promisify(execFile);

describe("converting Auth0, Firebase and Keycloak exports", () => {
  let s: TestStack;
  let app: FlowApp;
  beforeAll(async () => {
    s = await startTestStack({ embedded: true });
    app = await createApp(s, "convert");
  });
  afterAll(() => s.close());

  const convert = async (source: string, name: string, content: string) => {
    const file = join(s.config.dataDir, name);
    await writeFile(file, content);
    const { stdout, stderr } = await run(process.execPath, [SCRIPT, source, file, "--name-key", "name"]);
    return { stdout, stderr };
  };
  const login = (email: string, password: string) =>
    send(s, "POST", "/activityid/v1/user/access", app.token, app.entrypoint, loginEnvelope(app, email, password));

  it("Auth0: the password-hash export (NDJSON, Mongo-style), bcrypt", async () => {
    const lines = [
      {
        _id: { $oid: "60425dc43519d90068f82973" },
        email_verified: true,
        email: "auth0.ana@example.com",
        name: "Ana Auth0",
        passwordHash: bcrypt.hashSync(PASSWORD, 8),
        password_set_date: { $date: "2021-03-05T16:35:16.775Z" },
        tenant: "dev-tenant",
        connection: "Username-Password-Authentication",
        _tmp_is_unique: true,
      },
      { _id: { $oid: "60425dc43519d90068f82974" }, phone_number: "+34600111222", passwordHash: "x" },
    ];
    const out = await convert("auth0", "auth0.json", lines.map((l) => JSON.stringify(l)).join("\n"));
    expect(out.stderr).toBe("1 users written, 1 without an email left out\n");
    expect(JSON.parse(out.stdout)).toMatchObject({ confirmed: ["email"], created: "2021-03-05T16:35:16.775Z" });
    expect(await importDone(s, app.entrypoint, out.stdout)).toMatchObject({ imported: 1, failed: [] });
    expect((await login("auth0.ana@example.com", PASSWORD)).statusCode).toBe(200);
  });

  it("Firebase: firebase auth:export --format=json, with the project's hash parameters", async () => {
    const exported = {
      users: [
        {
          localId: "Ua3nc3aW6jfnKEvqQYkqXqdzFr13",
          email: "firebase.ana@example.com",
          emailVerified: true,
          passwordHash: FIREBASE.hash.hash,
          salt: FIREBASE.hash.salt,
          displayName: "Ana Firebase",
          lastSignedInAt: "1700000000000",
          createdAt: "1600000000000",
          providerUserInfo: [{ providerId: "password", email: "firebase.ana@example.com" }],
        },
      ],
    };
    const out = await convert("firebase", "firebase.json", JSON.stringify(exported));
    expect(JSON.parse(out.stdout)).toMatchObject({
      created: "2020-09-13T12:26:40.000Z",
      datas: { name: { value: "Ana Firebase" } },
    });
    expect(await importDone(s, app.entrypoint, out.stdout, FIREBASE.params)).toMatchObject({ imported: 1, failed: [] });
    expect((await login("firebase.ana@example.com", FIREBASE.password)).statusCode).toBe(200);
  });

  it("Keycloak: a realm export's users with their pbkdf2-sha256 credentials", async () => {
    const salt = randomBytes(16);
    const value = pbkdf2Sync(PASSWORD, salt, 27500, 32, "sha256").toString("base64");
    const realm = {
      realm: "shop",
      users: [
        {
          id: "8e6e3d6c-0c4a-4a0d-9a1b-5d3c2b1a0f9e",
          createdTimestamp: 1650000000000,
          username: "ana",
          enabled: true,
          email: "keycloak.ana@example.com",
          emailVerified: false,
          firstName: "Ana",
          lastName: "Keycloak",
          credentials: [
            {
              id: "c1",
              type: "password",
              createdDate: 1650000000000,
              secretData: JSON.stringify({ value, salt: salt.toString("base64"), additionalParameters: {} }),
              credentialData: JSON.stringify({
                hashIterations: 27500,
                algorithm: "pbkdf2-sha256",
                additionalParameters: {},
              }),
            },
          ],
          realmRoles: ["default-roles-shop"],
        },
      ],
    };
    const out = await convert("keycloak", "realm.json", JSON.stringify(realm));
    expect(await importDone(s, app.entrypoint, out.stdout)).toMatchObject({ imported: 1, failed: [] });
    // emailVerified false: the main id is unconfirmed, so the right password meets the 412.
    expect((await login("keycloak.ana@example.com", PASSWORD)).statusCode).toBe(412);
    expect((await login("keycloak.ana@example.com", "wrong password!")).statusCode).toBe(403);
  });
});
