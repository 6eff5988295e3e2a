import { createClient } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { createLogger } from "@gatehouse/logging";
import { AuthService } from "@gatehouse/proto";
import { createDrain } from "./drain.ts";
import { serveService } from "./serve.ts";
import { httpTransport, type Routes } from "./transports.ts";

// Contract section 16, one replica: draining says so on /readyz and keeps
// serving; closing lets a call in flight finish over the same HTTP/2
// connection (GOAWAY), then the port is shut.
describe("a service server's drain", () => {
  it("readyz 503 while serving, then a slow call in flight finishes after close began; new connections are refused", async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    let calls = 0;
    const routes: Routes = (r) =>
      r.service(AuthService, {
        async getJwks() {
          calls++;
          if (calls === 2) await slow;
          return { jwksJson: `{"n":${calls}}` };
        },
      });
    const drain = createDrain();
    const server = await serveService({
      name: "t",
      host: "127.0.0.1",
      port: 0,
      routes,
      interceptors: [],
      ready: async () => true,
      logger: createLogger("t", "silent"),
      drain,
    });
    const base = `http://127.0.0.1:${server.port}`;
    const client = createClient(AuthService, httpTransport(base));
    expect((await client.getJwks({})).jwksJson).toBe('{"n":1}');
    expect((await fetch(`${base}/readyz`)).status).toBe(200);

    drain.start();
    const readyz = await fetch(`${base}/readyz`);
    expect([readyz.status, await readyz.json()]).toEqual([503, { status: "draining" }]);
    expect(readyz.headers.get("connection")).toBe("close");

    const inFlight = client.getJwks({}); // held by the server until released
    await expect.poll(() => calls).toBe(2);
    const closed = server.close(5_000);
    await new Promise((r) => setTimeout(r, 100));
    release();
    expect((await inFlight).jwksJson).toBe('{"n":2}');
    const t0 = Date.now();
    await closed;
    expect(Date.now() - t0).toBeLessThan(1000); // nothing idle kept it open
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });
});
