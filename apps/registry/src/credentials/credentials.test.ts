import { Code } from "@connectrpc/connect";
import { ClientKind } from "@gatehouse/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  application,
  backends,
  failure,
  OPERATOR_ACTOR,
  startRegistry,
  validApplicationJson,
  type Harness,
} from "../../test/harness.ts";

describe.each(backends)("client credentials on %s", (_name, open) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startRegistry(open);
  });
  afterAll(async () => {
    await h.close();
  });

  const newApplication = async () => {
    const res = await h.operator.createApplication({ application: application(validApplicationJson()) });
    return { clientId: res.application!.id, password: res.password };
  };

  it("generates a secret of at least 128 bits and never stores it in clear", async () => {
    const { clientId, password } = await newApplication();
    expect(Buffer.from(password, "base64url").length).toBeGreaterThanOrEqual(16);
    const { rows } = await h.db.query("SELECT * FROM registry.clients WHERE client_id = $1", [clientId]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0])).not.toContain(password);
    const eps = await h.db.query("SELECT * FROM registry.entrypoints WHERE client_id = $1", [clientId]);
    expect(JSON.stringify(eps.rows)).not.toContain(password);
    const other = await newApplication();
    expect(other.password).not.toBe(password);
  });

  it("authenticates an application with its secret and refuses a wrong one or an unknown client", async () => {
    const { clientId, password } = await newApplication();
    const ok = await h.internal.authenticateClient({ clientId, clientSecret: password });
    expect(ok.clientId).toBe(clientId);
    expect(ok.kind).toBe(ClientKind.APPLICATION);
    expect(ok.allowedScopes).toEqual(["users:access"]);
    expect(ok.redirectUris).toEqual(["https://shop.example.com/callback"]);
    expect(ok.secretVersion).toBe(1);
    for (const attempt of [
      { clientId, clientSecret: password.slice(0, -1) + (password.endsWith("A") ? "B" : "A") },
      { clientId, clientSecret: "" },
      { clientId: "999999999999", clientSecret: password },
      { clientId: "", clientSecret: password },
    ]) {
      const err = await failure(h.internal.authenticateClient(attempt));
      expect([err.code, err.reason]).toEqual([Code.Unauthenticated, "INVALID_CLIENT"]);
    }
  });

  it("binds a stored secret to its client", async () => {
    const a = await newApplication();
    const b = await newApplication();
    await h.db.query(
      `UPDATE registry.clients SET secret_mac = (SELECT secret_mac FROM registry.clients WHERE client_id = $1) WHERE client_id = $2`,
      [a.clientId, b.clientId],
    );
    const err = await failure(h.internal.authenticateClient({ clientId: b.clientId, clientSecret: a.password }));
    expect(err.reason).toBe("INVALID_CLIENT");
  });

  it("reveals an application's secret to an operator and audits it", async () => {
    const { clientId, password } = await newApplication();
    const res = await h.operator.revealClientSecret({ clientId, reason: "support ticket 42" });
    expect(res.clientSecret).toBe(password);
    const { rows } = await h.db.query(
      "SELECT actor, action, target, details FROM registry.audit_log WHERE target = $1 ORDER BY id",
      [clientId],
    );
    expect(rows).toEqual([
      {
        actor: OPERATOR_ACTOR,
        action: "application.create",
        target: clientId,
        details: { displayName: "Shop", entrypoints: [`${clientId}_web`] },
      },
      {
        actor: OPERATOR_ACTOR,
        action: "client_secret.reveal",
        target: clientId,
        details: { reason: "support ticket 42" },
      },
    ]);
    const missing = await failure(h.operator.revealClientSecret({ clientId: "999999999999", reason: "x" }));
    expect([missing.code, missing.reason]).toEqual([Code.NotFound, "APPLICATION_NOT_FOUND"]);
  });

  describe("EnsureOperatorClient", () => {
    it("creates an operator client once and is idempotent with the same secret", async () => {
      const secret = "operator-secret-0123456789";
      const first = await h.internal.ensureOperatorClient({
        clientId: "ops.console",
        clientSecret: secret,
        displayName: "Console",
      });
      expect(first).toMatchObject({ clientId: "ops.console", clientSecret: secret, created: true });
      const again = await h.internal.ensureOperatorClient({ clientId: "ops.console", clientSecret: secret });
      expect(again).toMatchObject({ clientSecret: secret, created: false });
      const keep = await h.internal.ensureOperatorClient({ clientId: "ops.console", clientSecret: "" });
      expect(keep).toMatchObject({ clientSecret: secret, created: false });
      const auth = await h.internal.authenticateClient({ clientId: "ops.console", clientSecret: secret });
      expect(auth.kind).toBe(ClientKind.OPERATOR);
      expect(auth.allowedScopes).toEqual(["apps:write", "apps:read", "admin", "admin:read", "admin:write"]);
      expect(auth.secretVersion).toBe(1);
      const { rows } = await h.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM registry.clients WHERE client_id = 'ops.console'",
      );
      expect(rows[0]?.n).toBe(1);
    });

    it("rotates the secret when a different one is given", async () => {
      await h.internal.ensureOperatorClient({ clientId: "ops-rotate", clientSecret: "first-secret-0123456" });
      const rotated = await h.internal.ensureOperatorClient({
        clientId: "ops-rotate",
        clientSecret: "second-secret-0123456",
      });
      expect(rotated.created).toBe(true);
      const auth = await h.internal.authenticateClient({
        clientId: "ops-rotate",
        clientSecret: "second-secret-0123456",
      });
      expect(auth.secretVersion).toBe(2);
      const audit = await h.db.query<{ actor: string; action: string }>(
        "SELECT actor, action FROM registry.audit_log WHERE target = 'ops-rotate' ORDER BY id",
      );
      expect(audit.rows).toEqual([
        { actor: "service:test", action: "operator_client.create" },
        { actor: "service:test", action: "operator_client.rotate" },
      ]);
      const old = await failure(
        h.internal.authenticateClient({ clientId: "ops-rotate", clientSecret: "first-secret-0123456" }),
      );
      expect(old.reason).toBe("INVALID_CLIENT");
    });

    it("generates a secret when none is given, and survives concurrent calls", async () => {
      const runs = await Promise.all(
        [1, 2, 3].map(() => h.internal.ensureOperatorClient({ clientId: "ops-generated", clientSecret: "" })),
      );
      expect(runs.filter((r) => r.created)).toHaveLength(1);
      const secret = runs[0]!.clientSecret;
      expect(Buffer.from(secret, "base64url").length).toBe(32);
      expect(runs.every((r) => r.clientSecret === secret)).toBe(true);
      await expect(
        h.internal.authenticateClient({ clientId: "ops-generated", clientSecret: secret }),
      ).resolves.toBeDefined();
    });

    it("validates its input and never takes over an application's client_id", async () => {
      const bad = await failure(h.internal.ensureOperatorClient({ clientId: "a b", clientSecret: "short" }));
      expect(bad.code).toBe(Code.InvalidArgument);
      expect(bad.violations.map((v) => [v.field, v.code])).toEqual([
        ["clientId", "invalid_format"],
        ["clientSecret", "too_short"],
      ]);
      const { clientId } = await newApplication();
      const taken = await failure(h.internal.ensureOperatorClient({ clientId, clientSecret: "x".repeat(20) }));
      expect([taken.code, taken.reason]).toEqual([Code.AlreadyExists, "APPLICATION_ID_TAKEN"]);
      await h.internal.ensureOperatorClient({ clientId: "ops-hidden", clientSecret: "y".repeat(20) });
      const reveal = await failure(h.operator.revealClientSecret({ clientId: "ops-hidden", reason: "x" }));
      expect(reveal.reason).toBe("APPLICATION_NOT_FOUND");
    });
  });
});
