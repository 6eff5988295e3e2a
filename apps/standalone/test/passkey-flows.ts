import { expect } from "vitest";
import { SoftAuthenticator, type Tamper } from "@gatehouse/testing";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, send, SOURCE, type FlowApp, type LoggedUser } from "./user-flows.ts";

// Passkeys by API with the software authenticator the tests build: a stack,
// an application with a second entry point (`profile`, a mandatory birthday),
// a user with a passkey, and a passkey sign-in with optional wrong parts.

/** The stack's origin (startTestStack's PUBLIC_URL): the relying party's. */
export const ORIGIN = "http://gatehouse.test";

export interface PasskeyFlows {
  s: TestStack;
  app: FlowApp;
  get(url: string, token: string): ReturnType<typeof send>;
  del(url: string, token: string): ReturnType<typeof send>;
  post(url: string, token: string, body: unknown, from?: string): ReturnType<typeof send>;
  /** A logged user with one passkey ("Laptop") enrolled on `auth`; `id2` is the passkey's id. */
  enrolled(auth?: SoftAuthenticator): Promise<LoggedUser & { auth: SoftAuthenticator; id2: string }>;
  /** The /user/access envelope with `object.passkey` (and `ids` when given). */
  envelope(passkey: unknown, ids?: unknown): Record<string, unknown>;
  /** A passkey sign-in through /access/passkey and /access, with `t` applied to the assertion. */
  signIn(
    auth: SoftAuthenticator,
    t?: Tamper,
    opts?: { ids?: unknown; from?: string; query?: string },
  ): ReturnType<typeof send>;
}

export async function passkeyFlows(embedded: boolean): Promise<PasskeyFlows> {
  const s = await startTestStack({ embedded });
  const app = await createApp(s, "shop", (body) => {
    body.entrypoints.push({
      objectType: "entrypoint",
      displayName: "Profile",
      key: "profile",
      fields: [
        {
          objectType: "fieldConfig",
          type: "id",
          key: "email",
          main: true,
          mandatory: true,
          requiresConfirmation: true,
        },
        { objectType: "fieldConfig", type: "field", key: "birthday", mandatory: true },
      ],
      typology: body.entrypoints[0].typology,
    });
  });
  const headers = (token: string) => ({ authorization: `Bearer ${token}`, accept: "application/json" });
  const post = (url: string, token: string, body: unknown, from = app.entrypoint) =>
    send(s, "POST", url, token, from, body);
  const envelope = (passkey: unknown, ids?: unknown) => ({
    actor: { id: app.id, objectType: "application" },
    verb: "access",
    object: { objectType: "user", passkey, ...(ids ? { ids } : {}) },
    source: SOURCE,
  });
  return {
    s,
    app,
    get: (url, token) => s.app.inject({ method: "GET", url, headers: headers(token) }),
    del: (url, token) => s.app.inject({ method: "DELETE", url, headers: headers(token) }),
    post,
    envelope,
    async enrolled(auth = new SoftAuthenticator(ORIGIN)) {
      const u = await loggedUser(s, app);
      const options = (await post("/activityid/v1/user/passkeys/options", u.accessToken, {})).json().content.publicKey;
      const res = await post("/activityid/v1/user/passkeys", u.accessToken, {
        name: "Laptop",
        credential: auth.create(options),
      });
      expect(res.statusCode).toBe(201);
      return { ...u, auth, id2: res.json().content.passkey.id };
    },
    async signIn(auth, t = {}, opts = {}) {
      const from = opts.from ?? app.entrypoint;
      const started = await post("/activityid/v1/user/access/passkey", app.token, {}, from);
      expect(started.statusCode).toBe(200);
      const { publicKey, token } = started.json().content;
      const credential = auth.get(publicKey, t);
      return post(
        `/activityid/v1/user/access${opts.query ?? ""}`,
        app.token,
        envelope({ token, credential }, opts.ids),
        from,
      );
    },
  };
}
