import { randomBytes } from "node:crypto";
import { sendJson, type HttpConnection, type HttpRequest } from "./http.ts";
import { sendOnce } from "./load.ts";
import { tokenRequest } from "./scenario.ts";
import type { Target } from "./targets.ts";

/** The application the user scenarios run as: its secret, its entry point and an APP_TOKEN. */
export interface BenchApp {
  clientId: string;
  clientSecret: string;
  entrypointId: string;
  appToken: string;
}

export interface BenchUser {
  email: string;
  password: string;
}

/** What a login returns that the scenarios use (content.user.id, content.session_info). */
export interface UserSession {
  userId: string;
  accessToken: string;
  refreshToken: string;
}

const SOURCE = { id: "pc", objectType: "device" };
const REGISTER_CONCURRENCY = 8;

/**
 * An application whose entry point's only identifier is an email that needs
 * no confirmation (a single id field need not be main), so registered users
 * log in at once; `name` is the data field the patch scenario changes.
 */
export function applicationBody(): Record<string, unknown> {
  const person = (email: string) => ({ objectType: "person", schemaOrg: { email: { value: email } } });
  return {
    objectType: "application",
    key: "bench",
    displayName: "Bench",
    url: "https://bench.example.com",
    contact: {
      support: {
        objectType: "person",
        schemaOrg: { email: { value: "support@bench.example.com" }, mobile: { value: "+34600111222" } },
      },
      projectManager: person("pm@bench.example.com"),
      productOwner: person("po@bench.example.com"),
    },
    redirectUris: ["https://bench.example.com/callback"],
    organizationSchemaOrg: { identifier: "default" },
    entrypoints: [
      {
        objectType: "entrypoint",
        displayName: "Bench sign-in",
        key: "web",
        fields: [
          {
            objectType: "fieldConfig",
            type: "id",
            key: "email",
            main: false,
            mandatory: true,
            requiresConfirmation: false,
          },
          { objectType: "fieldConfig", type: "field", key: "name", mandatory: false },
        ],
        typology: { register: { objectType: "typology" }, work: { objectType: "typology" } },
      },
    ],
  };
}

/** Creates the application with the operator's token (`POST /v2/apps`) and takes an APP_TOKEN with users:access. */
export async function createBenchApp(t: Target): Promise<BenchApp> {
  const op = await sendOnce(tokenRequest(t, { grant_type: "client_credentials", scope: "apps:write" }));
  const created = await sendOnce({
    url: `${t.baseUrl}/v2/apps`,
    method: "POST",
    headers: {
      authorization: `Bearer ${String(op.access_token)}`,
      "content-type": "application/json",
      accept: "application/json",
    },
    body: JSON.stringify(applicationBody()),
  });
  const app = created.content as { id: string; password: string; entrypoints: { id: string }[] };
  const clientSecret = app.password;
  const appTarget = { ...t, clientId: app.id, clientSecret };
  const token = await sendOnce(tokenRequest(appTarget, { grant_type: "client_credentials", scope: "users:access" }));
  return { clientId: app.id, clientSecret, entrypointId: app.entrypoints[0]!.id, appToken: String(token.access_token) };
}

function userHeaders(app: BenchApp, bearer: string): Record<string, string> {
  return {
    authorization: `Bearer ${bearer}`,
    "content-type": "application/json",
    accept: "application/json",
    from: app.entrypointId,
  };
}

/** Registers `count` users (201 each), a few at a time: each registration hashes a password. */
export async function registerUsers(t: Target, app: BenchApp, count: number): Promise<BenchUser[]> {
  const run = randomBytes(4).toString("hex");
  const users = Array.from({ length: count }, (_, i) => ({
    email: `bench.${run}.${i}@example.com`,
    password: `bench password ${run}`,
  }));
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < users.length; i = next++) {
      const u = users[i]!;
      await sendOnce({
        url: `${t.baseUrl}/activityid/v1/user/register`,
        method: "POST",
        headers: userHeaders(app, app.appToken),
        body: JSON.stringify({
          actor: { id: app.clientId, objectType: "application" },
          verb: "create",
          object: {
            objectType: "user",
            password: u.password,
            ids: { email: { objectType: "user_id", value: u.email } },
            datas: { name: { objectType: "data", value: "Bench" } },
            assertions: {},
          },
          source: SOURCE,
        }),
      });
    }
  };
  await Promise.all(Array.from({ length: REGISTER_CONCURRENCY }, worker));
  return users;
}

/** `POST /activityid/v1/user/access` with the APP_TOKEN: the login envelope of the spec. */
export function loginRequest(app: BenchApp, user: BenchUser): HttpRequest {
  return {
    method: "POST",
    path: "/activityid/v1/user/access",
    headers: userHeaders(app, app.appToken),
    body: JSON.stringify({
      actor: { id: app.clientId, objectType: "application" },
      verb: "access",
      object: {
        objectType: "user",
        password: user.password,
        ids: { email: { objectType: "user_id", value: user.email } },
      },
      source: SOURCE,
    }),
  };
}

interface LoginBody {
  content: { user: { id: string | number }; session_info: { access_token: string; refresh_token: string } };
}

/** Logs `user` in on `conn` (200 or it throws). */
export async function logIn(conn: HttpConnection, app: BenchApp, user: BenchUser): Promise<UserSession> {
  const { content } = await sendJson<LoginBody>(conn, loginRequest(app, user), 200);
  // content.user.id is a JSON number when numeric (the spec's long); actor.id and the path take it as a string.
  return {
    userId: String(content.user.id),
    accessToken: content.session_info.access_token,
    refreshToken: content.session_info.refresh_token,
  };
}

/** `PATCH /activityid/v1/user/update/{object_id}` of the user's name, re-authenticated by the current password. */
export function patchNameRequest(app: BenchApp, user: BenchUser, session: UserSession, name: string): HttpRequest {
  return {
    method: "PATCH",
    path: `/activityid/v1/user/update/${encodeURIComponent(session.userId)}`,
    headers: userHeaders(app, session.accessToken),
    body: JSON.stringify({
      actor: { id: session.userId, objectType: "person" },
      verb: "update",
      object: { objectType: "user", password: user.password, datas: { name: { objectType: "data", value: name } } },
      source: SOURCE,
    }),
  };
}

/** `POST /oauth2/token` refresh_token grant with the application's client_secret_basic. */
export function refreshRequest(app: BenchApp, refreshToken: string): HttpRequest {
  const basic = Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret)}`).toString(
    "base64",
  );
  return {
    method: "POST",
    path: "/oauth2/token",
    headers: {
      authorization: `Basic ${basic}`,
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
    },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }).toString(),
  };
}
