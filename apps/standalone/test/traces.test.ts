import { createServer, type Server } from "node:http";
import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { createAppWithToken, outboxLinkToken, type TestApp } from "./http-users.ts";
import { freePort, runEntry, serverEnv, stopChild, waitReady, type Spawned } from "./processes.ts";

// Contract section 16: with OTEL_EXPORTER_OTLP_ENDPOINT set, every process of
// start:services exports its spans (OTLP/HTTP, http/json here) to a real
// receiver: one request is one trace from the gateway through the services
// to the confirmation worker, continuing the caller's traceparent.

interface Span {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

/** An OTLP/HTTP receiver of JSON traces (POST /v1/traces), keeping every span. */
function otlpReceiver() {
  const spans: Span[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      if (req.url === "/v1/traces" && req.headers["content-type"]?.startsWith("application/json")) {
        for (const rs of JSON.parse(body).resourceSpans ?? []) {
          const service = rs.resource.attributes.find((a: { key: string }) => a.key === "service.name")?.value
            .stringValue;
          for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) spans.push({ service, ...s });
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  return { spans, server };
}

describe("traces across start:services", () => {
  const receiver = otlpReceiver();
  let child: Spawned;
  let gw: string;
  let dataDir: string;
  let app: TestApp;

  beforeAll(async () => {
    await new Promise<void>((r) => receiver.server.listen(0, "127.0.0.1", r));
    const otlp = `http://127.0.0.1:${(receiver.server.address() as { port: number }).port}`;
    const ports = await Promise.all(Array.from({ length: 5 }, () => freePort()));
    dataDir = await mkdtemp(join(tmpdir(), "gh-traces-"));
    const urls = ports.slice(1, 4).map((p) => `http://127.0.0.1:${p}`);
    const started = serverEnv(
      ports[0]!,
      {
        DATA_DIR: dataDir,
        DATABASE_URL: (await freshDatabase()).url,
        REDIS_URL: redisTestUrl(),
        REDIS_PREFIX: uniquePrefix(),
      },
      {
        REGISTRY_PORT: String(ports[1]),
        AUTH_PORT: String(ports[2]),
        USERS_PORT: String(ports[3]),
        WORKER_PORT: String(ports[4]),
        REGISTRY_URL: urls[0]!,
        AUTH_URL: urls[1]!,
        USERS_URL: urls[2]!,
        LOG_LEVEL: "info",
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_BSP_SCHEDULE_DELAY: "100",
      },
    );
    gw = started.gw;
    child = await runEntry("services", [], started.env);
    await waitReady(`${gw}/readyz`, child, 90_000);
    app = await createAppWithToken(gw, "traced");
  }, 150_000);
  afterAll(async () => {
    await stopChild(child);
    receiver.server.close();
  });

  /** The spans of one trace, once every named service has sent one. */
  async function traceOf(traceId: string, services: string[]): Promise<Span[]> {
    const seen = () => new Set(receiver.spans.filter((s) => s.traceId === traceId).map((s) => s.service));
    await expect.poll(() => services.filter((x) => !seen().has(x)), { timeout: 20_000 }).toEqual([]);
    return receiver.spans.filter((s) => s.traceId === traceId);
  }
  const traceparent = () => {
    const traceId = randomBytes(16).toString("hex");
    const parent = randomBytes(8).toString("hex");
    return { traceId, parent, header: `00-${traceId}-${parent}-01` };
  };

  const PASSWORD = "correct horse battery";
  const envelope = (verb: "create" | "access", email: string) => ({
    actor: { id: app.id, objectType: "application" },
    verb,
    object: {
      objectType: "user",
      password: PASSWORD,
      ids: { email: { objectType: "user_id", value: email } },
      ...(verb === "create" ? { datas: { name: { objectType: "data", value: "Ana" } }, assertions: {} } : {}),
    },
    source: { id: "pc", objectType: "device" },
  });
  const post = (path: string, body: unknown, traceparentHeader: string) =>
    fetch(`${gw}${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${app.token}`,
        "content-type": "application/json",
        accept: "application/json",
        from: app.entrypoint,
        traceparent: traceparentHeader,
      },
      body: JSON.stringify(body),
    });
  const email = `tr.${Date.now()}@example.com`;

  it("a registration is one trace: the gateway continues the caller's traceparent, users serves it, the worker's delivery joins it; its log lines carry trace_id", async () => {
    const t = traceparent();
    expect((await post("/activityid/v1/user/register", envelope("create", email), t.header)).status).toBe(201);
    const spans = await traceOf(t.traceId, ["gatehouse-gateway", "gatehouse-users", "gatehouse-confirmation-worker"]);
    const edge = spans.find((s) => s.service === "gatehouse-gateway" && s.name.startsWith("POST "))!;
    expect(edge.parentSpanId).toBe(t.parent);
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const delivery = spans.find((s) => s.name === "confirmation delivery")!;
    expect(delivery.service).toBe("gatehouse-confirmation-worker");
    // Its ancestry goes back through users to the gateway's request span.
    const chain: string[] = [];
    for (let s: Span | undefined = delivery; s; s = s.parentSpanId ? byId.get(s.parentSpanId) : undefined)
      chain.push(s.service);
    expect(chain).toContain("gatehouse-users");
    expect(chain.at(-1)).toBe("gatehouse-gateway");
    expect(child.output()).toContain(`"trace_id":"${t.traceId}"`);
  });

  it("a login is one trace through gateway, users and auth, with its PostgreSQL and Redis calls", async () => {
    const link = await outboxLinkToken(dataDir, email);
    expect((await fetch(`${gw}/activityid/v1/user/confirm?token=${link}`, { redirect: "manual" })).status).toBe(302);
    const t = traceparent();
    expect((await post("/activityid/v1/user/access", envelope("access", email), t.header)).status).toBe(200);
    const spans = await traceOf(t.traceId, ["gatehouse-gateway", "gatehouse-users", "gatehouse-auth"]);
    expect(spans.filter((s) => s.service === "gatehouse-auth").map((s) => s.name)).toContainEqual(
      expect.stringMatching(/^gatehouse\.auth\.v1\.\w+Service\//),
    );
    const names = spans.map((s) => s.name);
    expect(names).toContainEqual(expect.stringMatching(/^SELECT postgresql$/));
    expect(names).toContainEqual(expect.stringMatching(/^redis \w+$/));
  });
});
