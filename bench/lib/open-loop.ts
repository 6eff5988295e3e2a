import { loopResult, type LoopResult, type LoopTally } from "./closed-loop.ts";
import { TimeoutError, type HttpConnection, type HttpRequest } from "./http.ts";

const KEEP_SAMPLES = 3;

/**
 * Open loop: request k is due at start + k / rate, whatever the answers
 * before it; each goes out on the first idle connection (waiting for one if
 * all are busy), and its latency runs from when it was due, so a server that
 * falls behind shows it in the percentiles (no coordinated omission).
 * `next(i)` builds connection i's request (connections own their users).
 */
export async function runOpenLoop(
  conns: HttpConnection[],
  next: (conn: number) => HttpRequest,
  ratePerSecond: number,
  seconds: number,
  expectedStatus = 200,
): Promise<LoopResult> {
  const tally: LoopTally = {
    latencies: [],
    statusCodes: {},
    errors: 0,
    timeouts: 0,
    failureSamples: [],
    stoppedConnections: 0,
  };
  const sample = (text: string) =>
    tally.failureSamples.length < KEEP_SAMPLES && tally.failureSamples.push(text.slice(0, 300));
  const idle = conns.map((_, i) => i).reverse();
  const waiting: ((conn: number) => void)[] = [];
  const acquire = (): Promise<number> => {
    const i = idle.pop();
    return i === undefined ? new Promise((resolve) => waiting.push(resolve)) : Promise.resolve(i);
  };
  const release = (i: number) => {
    const w = waiting.shift();
    if (w) w(i);
    else idle.push(i);
  };
  const send = async (due: number) => {
    const i = await acquire();
    const req = next(i);
    try {
      const res = await conns[i]!.send(req);
      tally.latencies.push(performance.now() - due);
      tally.statusCodes[res.status] = (tally.statusCodes[res.status] ?? 0) + 1;
      if (res.status !== expectedStatus) sample(`${req.method} ${req.path} -> ${res.status}: ${res.body}`);
    } catch (err) {
      if (err instanceof TimeoutError) tally.timeouts++;
      else tally.errors++;
      sample(`${req.method} ${req.path}: ${(err as Error).message}`);
    } finally {
      release(i); // a failed socket is replaced by the connection's agent
    }
  };

  const started = performance.now();
  const total = Math.round(ratePerSecond * seconds);
  const inFlight: Promise<void>[] = [];
  for (let k = 0; k < total; k++) {
    const due = started + (k * 1000) / ratePerSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(send(due));
  }
  await Promise.all(inFlight);
  return loopResult(tally, (performance.now() - started) / 1000, expectedStatus);
}
