import { randomBytes } from "node:crypto";
import type { TestStack } from "./stack-helpers.ts";
import { createApp, loginEnvelope, send, type FlowApp } from "./user-flows.ts";

// Legal assertions through the gateway: an operator publishes them, each
// test gets its own typology (so its mandatory assertions stop only its own
// users' logins) and an application whose entry points use it.

export const ACCESS = "/activityid/v1/user/access";

/** A new typology in the operator catalog (no admin route for catalogs yet: straight into the registry's table). */
export async function newTypology(s: TestStack): Promise<string> {
  const key = `t${randomBytes(4).toString("hex")}`;
  await s.stores.db.query(
    "INSERT INTO registry.catalog_entries (kind, key, display_name) VALUES ('typology', $1, $1)",
    [key],
  );
  return key;
}

/**
 * An application of that typology with two entry points: `web` (name
 * mandatory, where users register) and `full` (birthday mandatory too: a
 * `web` user misses it there, fca answers 206).
 */
export async function typologyApp(s: TestStack, typology: string): Promise<FlowApp & { full: string }> {
  const key = `a${randomBytes(3).toString("hex")}`;
  const app = await createApp(s, key, (body) => {
    const web = body.entrypoints[0];
    web.typology = {
      register: { objectType: "typology", id: typology },
      work: { objectType: "typology", id: typology },
    };
    const full = structuredClone(web);
    full.key = "full";
    full.fields = full.fields.map((f: Record<string, unknown>) =>
      f.key === "birthday" ? { ...f, mandatory: true, step: 1 } : f,
    );
    body.entrypoints.push(full);
  });
  return { ...app, full: `${app.id}_full` };
}

export async function publish(s: TestStack, body: Record<string, unknown>, token?: string) {
  return s.app.inject({
    method: "POST",
    url: "/admin/v1/assertions",
    headers: { authorization: `Bearer ${token ?? (await s.operatorToken())}`, "content-type": "application/json" },
    payload: JSON.stringify(body),
  });
}

/** Publishes and expects 201. */
export async function published(s: TestStack, body: Record<string, unknown>) {
  const res = await publish(s, body);
  if (res.statusCode !== 201) throw new Error(`publish: ${res.statusCode} ${res.body}`);
  return res.json().content;
}

export const answer = (value: boolean) => ({ objectType: "assertion", value });

/** A login, optionally with `object.assertions`, through another entry point, with fca or a language. */
export function login(
  s: TestStack,
  app: FlowApp,
  email: string,
  opts: { assertions?: Record<string, unknown>; from?: string; query?: string; lang?: string } = {},
) {
  const body = loginEnvelope(app, email);
  if (opts.assertions) Object.assign(body.object, { assertions: opts.assertions });
  const headers = opts.lang ? { "accept-language": opts.lang } : {};
  return send(s, "POST", `${ACCESS}${opts.query ?? ""}`, app.token, opts.from ?? app.entrypoint, body, headers);
}

/** The user's acceptance history, oldest first. */
export async function acceptances(s: TestStack, userId: number | string) {
  const { rows } = await s.stores.db.query<{
    key: string;
    version: string;
    value: boolean;
    client_id: string;
    source_id: string;
    via: string;
  }>(
    "SELECT key, version, value, client_id, source_id, via FROM users.assertion_acceptances WHERE user_id = $1 ORDER BY id",
    [String(userId)],
  );
  return rows;
}

/** The hosted page's form fields as the browser would post them. */
export function termsForm(token: string, shown: { key: string; version: string }[], accept: string[]): string {
  const form = new URLSearchParams({ token });
  for (const a of shown) {
    form.append("shown", a.key);
    form.append(`version.${a.key}`, a.version);
  }
  for (const k of accept) form.append("accept", k);
  return form.toString();
}
