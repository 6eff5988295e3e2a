import { TimeoutError, type HttpConnection, type HttpRequest, type HttpResponse } from "./http.ts";
import type { LoadResult } from "./load.ts";

/**
 * One connection of the loop and the state it owns (a user, a refresh chain):
 * the next request depends on the previous answer, which autocannon's fixed
 * request cannot express.
 */
export interface LoopWorker {
  conn: HttpConnection;
  next(): HttpRequest;
  /**
   * Sees every answer; false stops this connection (its state is unusable, e.g.
   * a broken refresh chain). Throwing counts the request as failed and stops it.
   */
  settle(res: HttpResponse): boolean;
  /** Set by the loop when this connection stopped; later loops (after a warm-up) leave it out. */
  broken?: boolean;
}

export interface LoopResult extends LoadResult {
  /** The status every answer must have. */
  expectedStatus: number;
  /** Answers with another status, plus transport errors and timeouts: any is a failed bench. */
  failed: number;
  /** A few of the failures, for the report. */
  failureSamples: string[];
  /** Connections that stopped early (after a failure). */
  stoppedConnections: number;
}

const KEEP_SAMPLES = 3;

/** Nearest-rank percentile of ascending `sorted` values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Closed loop: each worker sends its next request as soon as the previous
 * answer is in, one in flight per connection, until `seconds` have passed;
 * requests in flight then finish and count. The rate is answers over the
 * time until the last one came in.
 */
export async function runClosedLoop(workers: LoopWorker[], seconds: number, expectedStatus = 200): Promise<LoopResult> {
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const failureSamples: string[] = [];
  let errors = 0;
  let timeouts = 0;
  let stoppedConnections = 0;
  const sample = (text: string) => failureSamples.length < KEEP_SAMPLES && failureSamples.push(text.slice(0, 300));

  const started = performance.now();
  const deadline = started + seconds * 1000;
  const loop = async (w: LoopWorker) => {
    if (w.broken) return;
    while (performance.now() < deadline) {
      const req = w.next();
      const t0 = performance.now();
      let res: HttpResponse;
      try {
        res = await w.conn.send(req);
      } catch (err) {
        if (err instanceof TimeoutError) timeouts++;
        else errors++;
        sample(`${req.method} ${req.path}: ${(err as Error).message}`);
        stoppedConnections++;
        w.broken = true;
        return; // whether the server acted on it is unknown: the worker's state cannot be trusted
      }
      latencies.push(performance.now() - t0);
      statusCodes[res.status] = (statusCodes[res.status] ?? 0) + 1;
      if (res.status !== expectedStatus) sample(`${req.method} ${req.path} -> ${res.status}: ${res.body}`);
      let goOn: boolean;
      try {
        goOn = w.settle(res);
      } catch (err) {
        // A status as expected with a body that is not: a failure of the request all the same.
        errors++;
        sample(`${req.method} ${req.path} -> ${res.status}: ${(err as Error).message}`);
        goOn = false;
      }
      if (!goOn) {
        stoppedConnections++;
        w.broken = true;
        return;
      }
    }
  };
  await Promise.all(workers.map(loop));
  const elapsedSeconds = (performance.now() - started) / 1000;
  return loopResult(
    { latencies, statusCodes, errors, timeouts, failureSamples, stoppedConnections },
    elapsedSeconds,
    expectedStatus,
  );
}

/** What a driver collected while it ran. */
export interface LoopTally {
  latencies: number[];
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  failureSamples: string[];
  stoppedConnections: number;
}

/** The figures of a run: rate, latency percentiles and failures. */
export function loopResult(tally: LoopTally, elapsedSeconds: number, expectedStatus: number): LoopResult {
  const { latencies, statusCodes, errors, timeouts, failureSamples, stoppedConnections } = tally;
  latencies.sort((a, b) => a - b);
  const answered = latencies.length;
  const ok2xx = Object.entries(statusCodes).reduce((n, [code, count]) => (code.startsWith("2") ? n + count : n), 0);
  const expected = statusCodes[expectedStatus] ?? 0;
  return {
    requestsPerSecond: round(answered / elapsedSeconds),
    latencyP50Ms: round(percentile(latencies, 50)),
    latencyP99Ms: round(percentile(latencies, 99)),
    latencyMeanMs: round(answered ? latencies.reduce((a, b) => a + b, 0) / answered : 0, 2),
    requests: answered + errors + timeouts,
    ok2xx,
    non2xx: answered - ok2xx,
    errors,
    timeouts,
    statusCodes,
    expectedStatus,
    failed: answered - expected + errors + timeouts,
    failureSamples,
    stoppedConnections,
  };
}
