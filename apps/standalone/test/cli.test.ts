import { pbkdf2Sync, randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as commands from "../src/cli/commands.ts";
import { runCli, type CliIo } from "../src/cli/program.ts";
import { runEntry, type Spawned } from "./processes.ts";
import { startTestStack, validApplication, type TestStack } from "./stack-helpers.ts";

// The command line's conventions (issue 14): help on stdout with exit 0 for the
// CLI and every command, JSON alone on stdout, one line on stderr and a
// non-zero exit on failure (2 for usage and configuration); the operators'
// reads over the admin RPCs against a running deployment's PostgreSQL.
const ALL = Object.values(commands);

async function cli(argv: string[], env: NodeJS.ProcessEnv = { DATA_DIR: "/nonexistent/gatehouse-cli-test" }) {
  let out = "";
  let err = "";
  const io: CliIo = { out: (t) => void (out += t), err: (t) => void (err += t), tty: false };
  const code = await runCli(ALL, argv, { io, env });
  return { code, out, err };
}

const exitOf = (child: Spawned) => new Promise<number | null>((r) => child.once("exit", r));

describe("CLI conventions", () => {
  it("--help and -h: the usage on stdout, exit 0, for the CLI, each group and every command", async () => {
    const paths = [[], ["apps"], ["users"], ...ALL.map((c) => [...c.path])];
    for (const path of paths) {
      for (const flag of ["--help", "-h"]) {
        const r = await cli([...path, flag]);
        expect({ path, ...r }).toMatchObject({ code: 0, err: "" });
        expect(r.out).toContain(`Usage: gatehouse ${path.length ? `${path.join(" ")} ` : ""}`);
      }
    }
    const top = await cli(["--help"]);
    for (const c of ALL) expect(top.out).toContain(c.path[0]);
    expect(top.out).toContain("npm run --silent cli --");
    expect((await cli(["users", "help", "find"])).out).toContain("Usage: gatehouse users find [options] <query>");
  });

  it("a wrong command, option or argument: one line on stderr naming the help, nothing on stdout, exit 2", async () => {
    for (const argv of [
      ["bogus"],
      ["apps", "list", "--bogus"],
      ["apps", "get"],
      ["apps", "get", "a", "b"],
      ["serve", "nope"],
      ["users", "find", "x", "--limit", "0"],
    ]) {
      const r = await cli(argv);
      expect({ argv, code: r.code, out: r.out }).toEqual({ argv, code: 2, out: "" });
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err).toMatch(/^error: .*\(see npm run --silent cli -- .*--help\)\n$/);
    }
    expect((await cli(["apps", "list", "--bogus"])).err).toBe(
      "error: unknown option '--bogus' (see npm run --silent cli -- apps list --help)\n",
    );
  });

  it("a configuration error: one line, exit 2; no command at all: the usage on stderr, exit 2", async () => {
    const r = await cli(["migrate"], { PORT: "abc" });
    expect(r).toEqual({ code: 2, out: "", err: 'configuration error: PORT must be a whole number, got "abc"\n' });
    const bare = await cli([]);
    expect(bare.code).toBe(2);
    expect(bare.out).toBe("");
    expect(bare.err).toContain("Usage: gatehouse <command> [options]");
  });

  it("as a process: help on stdout and exit 0; a failure on stderr and exit 2, stdout empty", async () => {
    const help = await runEntry("cli", ["users", "get", "--help"], { LOG_LEVEL: "" });
    expect(await exitOf(help)).toBe(0);
    expect(help.output()).toMatch(/^Usage: gatehouse users get \[options\] <id>/);
    const wrong = await runEntry("cli", ["apps", "list", "--q"], {});
    expect(await exitOf(wrong)).toBe(2);
    expect(wrong.output()).toBe(
      "error: option '-q, --q <text>' argument missing (see npm run --silent cli -- apps list --help)\n",
    );
  });
});

describe("CLI reads over the admin RPCs (PostgreSQL, beside a running server)", () => {
  let s: TestStack;
  let env: NodeJS.ProcessEnv;
  let appId: string;
  let appPassword: string;
  let entrypointId: string;
  let userId: string;
  beforeAll(async () => {
    s = await startTestStack();
    env = {
      DATABASE_URL: s.config.databaseUrl,
      REDIS_URL: s.config.redisUrl,
      REDIS_PREFIX: s.config.redisPrefix,
      SECRET_KEY: s.config.secretKey,
      DATA_DIR: s.config.dataDir,
    };
    const created = await s.app.inject({
      method: "POST",
      url: "/v2/apps",
      headers: { authorization: `Bearer ${await s.operatorToken("apps:write")}`, "content-type": "application/json" },
      payload: JSON.stringify({ ...validApplication(), key: "clishop", displayName: "CLI Shop" }),
    });
    const app = created.json().content as { id: string; password: string; entrypoints: { id: string }[] };
    const other = await s.app.inject({
      method: "POST",
      url: "/v2/apps",
      headers: { authorization: `Bearer ${await s.operatorToken("apps:write")}`, "content-type": "application/json" },
      payload: JSON.stringify({ ...validApplication(), key: "other" }),
    });
    expect(other.statusCode).toBe(201);
    appId = app.id;
    appPassword = app.password;
    entrypointId = app.entrypoints[0]!.id;
    const token = await s.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: { authorization: s.basic(app.id, app.password), "content-type": "application/x-www-form-urlencoded" },
      payload: "grant_type=client_credentials",
    });
    const registered = await s.app.inject({
      method: "POST",
      url: "/activityid/v1/user/register",
      headers: {
        authorization: `Bearer ${token.json().access_token}`,
        from: app.entrypoints[0]!.id,
        "content-type": "application/json",
      },
      payload: JSON.stringify({
        actor: { id: app.id, objectType: "application" },
        verb: "create",
        object: {
          objectType: "user",
          password: "correct horse battery",
          ids: { email: { objectType: "user_id", value: "cli.ana@example.com" } },
          datas: { name: { objectType: "data", value: "Ana" } },
          assertions: {},
        },
        source: { id: "pc", objectType: "device" },
      }),
    });
    expect(registered.statusCode, registered.body).toBe(201);
    userId = String(registered.json().content.user.id);
  });
  afterAll(() => s.close());

  const json = async (argv: string[]) => {
    const r = await cli(argv, env);
    expect({ argv, code: r.code, err: r.err }).toEqual({ argv, code: 0, err: "" });
    expect(r.out.endsWith("\n") && r.out.trim().split("\n")).toHaveLength(1);
    return JSON.parse(r.out);
  };

  it("apps list (-q, --limit) and apps get answer what GET /admin/v1/apps does", async () => {
    const found = await json(["apps", "list", "-q", "cli shop"]);
    expect(found.items.map((a: { id: string }) => a.id)).toEqual([appId]);
    const viaApi = await s.app.inject({
      method: "GET",
      url: `/admin/v1/apps/${appId}`,
      headers: { authorization: `Bearer ${await s.operatorToken("admin:read")}` },
    });
    const one = await json(["apps", "get", appId]);
    expect(one).toEqual(viaApi.json().content);
    expect(JSON.stringify(one)).not.toContain(appPassword);
    const page = await json(["apps", "list", "--limit", "1"]);
    expect(page.items).toHaveLength(1);
    const rest = await json(["apps", "list", "--cursor", page.next]);
    expect([...page.items, ...rest.items].map((a: { id: string }) => a.id)).toContain(appId);
    expect(rest.next).toBeUndefined();
    const missing = await cli(["apps", "get", "000000000000"], env);
    expect(missing).toEqual({
      code: 1,
      out: "",
      err: "apps get: The application does not exist. [application_not_found]\n",
    });
  });

  it("users find and users get answer what GET /admin/v1/users does", async () => {
    const found = await json(["users", "find", "cli.ana@"]);
    expect(found.items).toHaveLength(1);
    expect(found.items[0]).toMatchObject({ id: Number(userId), status: "active", mfa: false });
    const one = await json(["users", "get", userId]);
    expect(one).toMatchObject({
      id: Number(userId),
      status: "active",
      sessions: 0,
      ids: { email: { value: "cli.ana@example.com", confirmed: false } },
    });
    expect(await cli(["users", "get", "1"], env)).toEqual({
      code: 1,
      out: "",
      err: "users get: The user does not exist. [user_not_found]\n",
    });
  });

  it("users import takes the API's path: per-line results, then the imported user logs in with its old password", async () => {
    const salt = randomBytes(16);
    const hash = pbkdf2Sync("correct horse battery", salt, 1000, 32, "sha256");
    const b64 = (b: Buffer) => b.toString("base64").replace(/=+$/, "");
    const line = (email: string, password?: string) =>
      JSON.stringify({
        ids: { email: { objectType: "user_id", value: email } },
        datas: { name: { objectType: "data", value: "Ana" } },
        confirmed: ["email"],
        ...(password ? { password } : {}),
      });
    const file = join(s.config.dataDir, "import.ndjson");
    await writeFile(
      file,
      [
        line("cli.imported@example.com", `$pbkdf2-sha256$i=1000$${b64(salt)}$${b64(hash)}`),
        line("cli.ana@example.com"),
        "{",
      ].join("\n"),
    );
    const job = await json(["users", "import", file, "--entrypoint", entrypointId]);
    expect(job).toMatchObject({
      status: "done",
      imported: 1,
      skipped: 1,
      failed: [{ line: 3, code: "invalid_json", field: "" }],
      skips: [{ line: 2, code: "identifier_taken", field: "ids.email", user: userId }],
    });
    expect((await json(["users", "find", "cli.imported@"])).items).toHaveLength(1);
    const usage = await cli(["users", "import", file], env);
    expect([usage.code, usage.err]).toEqual([2, expect.stringContaining("--entrypoint is required")]);
  });

  it("bootstrap-operator prints the credentials; the server accepts them at once", async () => {
    const op = await json(["bootstrap-operator", "--client-id", "cli-operator"]);
    expect(op).toMatchObject({ client_id: "cli-operator", created: true });
    const token = await s.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: {
        authorization: s.basic("cli-operator", op.client_secret),
        "content-type": "application/x-www-form-urlencoded",
      },
      payload: "grant_type=client_credentials&scope=admin:read",
    });
    expect(token.statusCode).toBe(200);
    expect(await json(["bootstrap-operator", "--client-id", "cli-operator"])).toEqual({ ...op, created: false });
  });
});
