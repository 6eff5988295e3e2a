import type { Argon2Ceiling } from "../lib/argon2-ceiling.ts";
import type { LoopResult } from "../lib/closed-loop.ts";
import type { HttpConnection } from "../lib/http.ts";
import type { LoadSettings } from "../lib/load.ts";
import { runMeter, warnSteal, type RunCpu } from "../lib/machine.ts";
import { runOpenLoop } from "../lib/open-loop.ts";
import type { Target } from "../lib/targets.ts";
import { loginRequest, type BenchApp, type BenchUser } from "../lib/users.ts";

/** The open-loop login runs at this share of the argon2id ceiling (issue 13: p99 < 100 ms there). */
export const OPEN_LOOP_SHARE = 0.8;
export const OPEN_LOOP_P99_TARGET_MS = 100;

export interface OpenLoopMeasured {
  name: string;
  /** The rate requests were sent at, whatever the answers. */
  ratePerSecond: number;
  percentOfCeiling: number;
  result: LoopResult;
  cpuMicrosPerRequest: number | undefined;
  cpu: RunCpu;
  met: boolean;
}

/**
 * Logins sent at a fixed rate, OPEN_LOOP_SHARE of the argon2id ceiling,
 * for `settings.seconds` (after the closed-loop rounds, so the server is
 * warm): latency from when each login was due (bench/lib/open-loop.ts).
 * Connection i still takes only its own users, so an account never has two
 * logins in flight.
 */
export async function loginOpenLoop(
  t: Target,
  app: BenchApp,
  users: BenchUser[],
  conns: HttpConnection[],
  ceiling: Argon2Ceiling,
  settings: LoadSettings,
): Promise<OpenLoopMeasured> {
  const ratePerSecond = Math.round(ceiling.perSecond * OPEN_LOOP_SHARE * 10) / 10;
  const own = conns.map((_, i) => users.filter((_, u) => u % conns.length === i));
  const turns = conns.map(() => 0);
  console.log(`login (open loop): ${ratePerSecond}/s for ${settings.seconds} s`);
  const meter = runMeter(() => t.child.cpuSeconds());
  const result = await runOpenLoop(
    conns,
    (i) => loginRequest(app, own[i]![turns[i]!++ % own[i]!.length]!),
    ratePerSecond,
    settings.seconds,
  );
  const cpu = meter();
  warnSteal("login (open loop)", cpu.steal);
  for (const s of result.failureSamples) console.error(`login (open loop) failure: ${s}`);
  return {
    name: "login (open loop)",
    ratePerSecond,
    percentOfCeiling: Math.round(OPEN_LOOP_SHARE * 100),
    result,
    cpuMicrosPerRequest:
      cpu.serverCpuSeconds === undefined || result.requests === 0
        ? undefined
        : Math.round((cpu.serverCpuSeconds * 1e6) / result.requests),
    cpu,
    met: result.failed === 0 && result.latencyP99Ms < OPEN_LOOP_P99_TARGET_MS,
  };
}
