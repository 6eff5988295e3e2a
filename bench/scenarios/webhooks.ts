import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { HttpConnection, loopbackAddress, sendJson } from "../lib/http.ts";
import { sendOnce } from "../lib/load.ts";
import { tokenRequest } from "../lib/scenario.ts";
import { startGatehouse, type Target } from "../lib/targets.ts";
import { createBenchApp, loginRequest, registerUsers, type BenchApp, type BenchUser } from "../lib/users.ts";

/** What `npm run bench` reports of webhooks (contract section 14, issue 27). */
export interface WebhookMeasured {
  /** Events delivered per second to a fast loopback receiver: a backlog of application.updated drained. */
  eventsPerSecond: number;
  /** The admin changes that made them, per second (the producer side: delivery keeps up when the two are close). */
  changesPerSecond: number;
  events: number;
  /** Server CPU per login, µs: with one endpoint subscribed to everything, and with it switched off; medians of the rounds. */
  cpuPerLoginMicros: { subscribed: number; off: number; added: number };
  logins: number;
  rounds: number;
}

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000);
const LOGINS = Number(process.env.BENCH_WEBHOOK_LOGINS ?? 200);
const CONNS = 8;

/** Answers 204 at once; while `hold`, keeps the requests unanswered (a backlog builds up behind them). */
async function receiver() {
  // Distinct webhook-ids: an attempt that timed out while held and came back later counts once.
  const ids = new Set<string>();
  let last = 0;
  let held: (() => void)[] | undefined;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const answer = () => {
        ids.add(String(req.headers["webhook-id"]));
        last = Date.now();
        res.writeHead(204).end();
      };
      if (held) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    count: () => ids.size,
    lastArrival: () => last,
    hold: () => void (held = []),
    release() {
      const waiting = held ?? [];
      held = undefined;
      for (const answer of waiting) answer();
    },
    /** Waits until nothing new has arrived for `quietMs`. */
    async quiet(quietMs: number) {
      for (let seen = -1; seen !== ids.size;) {
        seen = ids.size;
        await new Promise((r) => setTimeout(r, quietMs));
      }
    },
    async until(n: number, timeoutMs = 120_000) {
      const end = Date.now() + timeoutMs;
      while (ids.size < n && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
      if (ids.size < n) throw new Error(`webhooks: ${ids.size} of ${n} events arrived`);
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `count` requests over CONNS keep-alive connections, each from its own loopback address. */
async function spread(count: number, send: (i: number, conn: HttpConnection) => Promise<unknown>, t: Target) {
  const conns = Array.from({ length: CONNS }, (_, i) => new HttpConnection(t.baseUrl, loopbackAddress(i)));
  let next = 0;
  await Promise.all(
    conns.map(async (conn) => {
      for (let i = next++; i < count; i = next++) await send(i, conn);
    }),
  );
  for (const c of conns) c.close();
}

/**
 * One `npm start` on PostgreSQL + Redis with WEBHOOK_ALLOW_PRIVATE=true and
 * an endpoint subscribed to "*" on a loopback receiver that answers 204 at
 * once: (1) logins with the endpoint on and off in alternating rounds, the
 * server's CPU per login each time (events delivered before the clock stops);
 * (2) a backlog of application.updated events built while the receiver holds
 * its answers, then the time it takes to drain it.
 */
export async function webhookScenario(rounds: number): Promise<WebhookMeasured> {
  const r = await receiver();
  const target = await startGatehouse({ WEBHOOK_ALLOW_PRIVATE: "true" });
  try {
    const app: BenchApp = await createBenchApp(target);
    const users: BenchUser[] = await registerUsers(target, app, CONNS * 4);
    const op = await sendOnce(tokenRequest(target, { grant_type: "client_credentials", scope: "admin" }));
    const admin = (method: string, path: string, body: unknown) =>
      sendOnce({
        url: `${target.baseUrl}${path}`,
        method: method as "POST",
        headers: { authorization: `Bearer ${String(op.access_token)}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const hook = (await admin("POST", "/admin/v1/webhooks", { url: r.url, events: ["*"] })).content as { id: string };
    const cpu = () => target.child.cpuSeconds() ?? 0;

    const perLogin = { subscribed: [] as number[], off: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      for (const state of ["off", "subscribed"] as const) {
        await admin("PATCH", `/admin/v1/webhooks/${hook.id}`, { enabled: state === "subscribed" });
        await new Promise((res) => setTimeout(res, 1500));
        const [before, cpu0] = [r.count(), cpu()];
        await spread(LOGINS, (i, conn) => sendJson(conn, loginRequest(app, users[i % users.length]!), 200), target);
        if (state === "subscribed") await r.until(before + LOGINS);
        else await new Promise((res) => setTimeout(res, 1000)); // the same idle second the delivery wait may take
        perLogin[state].push(((cpu() - cpu0) / LOGINS) * 1e6);
      }
    }

    // A backlog: the receiver holds its answers while the changes are made, then answers everything at once.
    await admin("PATCH", `/admin/v1/webhooks/${hook.id}`, { enabled: true });
    r.hold();
    const start = Date.now();
    const patchApp = (i: number, conn: HttpConnection) =>
      sendJson(
        conn,
        {
          method: "PATCH",
          path: `/admin/v1/apps/${app.clientId}`,
          headers: { authorization: `Bearer ${String(op.access_token)}`, "content-type": "application/json" },
          body: JSON.stringify({ displayName: `Bench ${i}` }),
        },
        200,
      );
    await spread(EVENTS, patchApp, target);
    const produced = (Date.now() - start) / 1000;
    const [released, base] = [Date.now(), r.count()];
    r.release();
    // Attempts that hit the 10 s timeout while held come back on the retry schedule: only the drain is timed.
    await r.quiet(2000);
    const drained = r.count() - base;
    const delivered = (r.lastArrival() - released) / 1000;
    const on = median(perLogin.subscribed);
    const off = median(perLogin.off);
    return {
      eventsPerSecond: Math.round(drained / delivered),
      changesPerSecond: Math.round(EVENTS / produced),
      events: drained,
      cpuPerLoginMicros: { subscribed: Math.round(on), off: Math.round(off), added: Math.round(on - off) },
      logins: LOGINS,
      rounds,
    };
  } finally {
    await target.stop();
    await r.close();
  }
}

export function printWebhooks(m: WebhookMeasured): void {
  console.log(
    `webhooks: ${m.eventsPerSecond} events/s delivered to a loopback receiver (a backlog of ${m.events} application.updated drained; the admin changes that made them ran at ${m.changesPerSecond}/s)`,
  );
  const c = m.cpuPerLoginMicros;
  console.log(
    `webhooks: server CPU per login ${c.subscribed} µs with one endpoint subscribed to "*", ${c.off} µs with it off: +${c.added} µs per login (${m.logins} logins, median of ${m.rounds} rounds)`,
  );
}
