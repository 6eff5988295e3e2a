import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin } from "./admin-flows.ts";
import { freePort } from "./processes.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp } from "./user-flows.ts";

// examples/webhooks: the Node receiver (standardwebhooks) and the Python one
// (the standard library alone) verify real deliveries, also signed with two
// secrets after a rotation, and refuse a forged one.
const DIR = fileURLToPath(new URL("../../../examples/webhooks/", import.meta.url));

interface Running {
  child: ChildProcess;
  url: string;
  lines: Record<string, any>[];
}

async function startExample(command: string, file: string, secret: string): Promise<Running> {
  const port = await freePort();
  const child = spawn(command, [file], {
    cwd: DIR,
    env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: Record<string, any>[] = [];
  let buffered = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    for (const p of parts) if (p.trim()) lines.push(JSON.parse(p) as Record<string, any>);
  });
  await until(() => lines.some((l) => l.listening), `${file} listening`);
  return { child, url: `http://127.0.0.1:${port}/hook`, lines };
}

async function until(ok: () => boolean, what: string, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("the example webhook receivers", () => {
  let s: TestStack;
  const running: Running[] = [];
  beforeAll(async () => {
    s = await startTestStack({ embedded: true, env: { WEBHOOK_ALLOW_PRIVATE: "true" } });
  });
  afterAll(async () => {
    for (const r of running) r.child.kill();
    await s.close();
  });

  it.each([
    ["receiver.mjs (Node, standardwebhooks)", process.execPath, "receiver.mjs"],
    ["receiver.py (Python, standard library)", "/usr/bin/python3", "receiver.py"],
  ])(
    "%s verifies deliveries, before and after a rotation, and refuses a forged one",
    async (_name, command, file) => {
      // The secret is known once the endpoint exists; the receiver starts with it, then the URL is set.
      const created = await admin(s, "POST", "/admin/v1/webhooks", {
        body: { url: "http://127.0.0.1:9/none", events: ["application.created"], enabled: false },
      });
      const { id, secret } = created.json().content as { id: string; secret: string };
      const r = await startExample(command, file, secret);
      running.push(r);
      expect(
        (await admin(s, "PATCH", `/admin/v1/webhooks/${id}`, { body: { url: r.url, enabled: true } })).statusCode,
      ).toBe(200);

      const app = await createApp(s, `ex${file.replace(/\W/g, "")}`);
      await until(() => r.lines.some((l) => l.verified && l.data.application?.client_id === app.id), "the first event");
      expect((await admin(s, "POST", `/admin/v1/webhooks/${id}/secret/rotate`)).statusCode).toBe(200);
      // The receiver still has the old secret: the second signature is the one it verifies.
      const next = await createApp(s, `ey${file.replace(/\W/g, "")}`);
      await until(
        () => r.lines.some((l) => l.verified && l.data.application?.client_id === next.id),
        "the event after the rotation",
      );

      const forged = await fetch(r.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "webhook-id": "evt_forged",
          "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
          "webhook-signature": "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        },
        body: JSON.stringify({ id: "evt_forged", type: "user.deleted", data: {} }),
      });
      expect(forged.status).toBe(400);
      expect(r.lines.filter((l) => l.verified).map((l) => l.type)).toEqual([
        "application.created",
        "application.created",
      ]);
    },
    60_000,
  );
});
