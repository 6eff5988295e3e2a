import { runClosedLoop, type LoopResult, type LoopWorker } from "./closed-loop.ts";
import { HttpConnection, loopbackAddress } from "./http.ts";
import type { LoadSettings } from "./load.ts";
import { backgroundLoad, runMeter, warnSteal, type RunCpu } from "./machine.ts";
import type { Target } from "./targets.ts";
import { perRequestMicros, threadTicks, type ThreadTicks } from "./threads.ts";

const WARM_UP_SECONDS = 3;
const NOISY_BACKGROUND = 0.15;

/** One user scenario measured on the Gatehouse instance. */
export interface LoopMeasured {
  name: string;
  result: LoopResult;
  /** Failed requests of the warm-up (they fail the bench like measured ones). */
  warmUpFailed: number;
  /** Gatehouse process CPU time (all threads, argon2 included; PostgreSQL and Redis not) per request. */
  cpuMicrosPerRequest: number | undefined;
  backgroundLoad: number;
  /** Where the CPU went during the measured run. */
  cpu: RunCpu;
  /** The server's CPU per request by kind of thread (its own process, not the ones it forks). */
  threads?: ThreadTicks | undefined;
}

/** A scenario that could not run, with the reason (e.g. the route is not deployed yet). */
export interface Skipped {
  name: string;
  skipped: string;
}

/** `count` connections, each from its own loopback address (see loopbackAddress). */
export function openConnections(t: Target, count: number): HttpConnection[] {
  return Array.from({ length: count }, (_, i) => new HttpConnection(t.baseUrl, loopbackAddress(i)));
}

/** Warm-up, then the measured closed loop, with the server's CPU time over the measured part. */
export async function measureLoop(
  t: Target,
  name: string,
  workers: LoopWorker[],
  settings: LoadSettings,
): Promise<LoopMeasured> {
  const background = await backgroundLoad();
  if (background > NOISY_BACKGROUND) {
    console.warn(
      `${name}: ${(background * 100).toFixed(0)}% of the CPU is busy before the run: other work will skew the figures`,
    );
  }
  console.log(`${name}: warm-up ${WARM_UP_SECONDS} s`);
  const warmUp = await runClosedLoop(workers, WARM_UP_SECONDS);
  for (const s of warmUp.failureSamples) console.error(`${name} warm-up failure: ${s}`);
  console.log(`${name}: measuring ${settings.seconds} s`);
  const meter = runMeter(() => t.child.cpuSeconds());
  const threadsBefore = threadTicks(t.child.pid);
  const result = await runClosedLoop(workers, settings.seconds);
  const threadsAfter = threadTicks(t.child.pid);
  const cpu = meter();
  warnSteal(name, cpu.steal);
  const cpuMicrosPerRequest =
    cpu.serverCpuSeconds === undefined || result.requests === 0
      ? undefined
      : Math.round((cpu.serverCpuSeconds * 1e6) / result.requests);
  return {
    name,
    result,
    warmUpFailed: warmUp.failed,
    cpuMicrosPerRequest,
    backgroundLoad: Math.round(background * 100) / 100,
    cpu,
    threads: threadsBefore && threadsAfter && perRequestMicros(threadsBefore, threadsAfter, result.requests),
  };
}

/** Requests that failed (not the expected status, transport errors, timeouts), warm-up included. */
export const failedRequests = (m: LoopMeasured | Skipped): number =>
  "skipped" in m ? 0 : m.result.failed + m.warmUpFailed;
