import type { Argon2Ceiling } from "../lib/argon2-ceiling.ts";
import type { LoopWorker } from "../lib/closed-loop.ts";
import type { HttpConnection } from "../lib/http.ts";
import type { LoadSettings } from "../lib/load.ts";
import type { Target } from "../lib/targets.ts";
import { measureLoop, type LoopMeasured } from "../lib/user-scenario.ts";
import { loginRequest, type BenchApp, type BenchUser } from "../lib/users.ts";

/** Login throughput must reach this share of the argon2id ceiling. */
export const LOGIN_TARGET_PERCENT = 90;

export interface LoginMeasured extends LoopMeasured {
  percentOfCeiling: number;
  targetPercent: number;
  met: boolean;
}

/**
 * Logins (`POST /activityid/v1/user/access`, 200 each) in a closed loop.
 * Connection i cycles through its own users i, i+N, i+2N, ...: no account
 * ever has two logins in flight, so the per-account throttle (attempts are
 * counted before the password check) never sees more than one at a time.
 */
export async function loginScenario(
  t: Target,
  app: BenchApp,
  users: BenchUser[],
  conns: HttpConnection[],
  ceiling: Argon2Ceiling,
  settings: LoadSettings,
): Promise<LoginMeasured> {
  if (users.length < conns.length * 2)
    throw new Error(`login: ${users.length} users are too few for ${conns.length} connections`);
  const workers = conns.map((conn, i): LoopWorker => {
    const own = users.filter((_, u) => u % conns.length === i);
    let turn = 0;
    return {
      conn,
      next: () => loginRequest(app, own[turn++ % own.length]!),
      settle: () => true, // a refused login leaves nothing behind: go on, the failure is counted
    };
  });
  const m = await measureLoop(t, "login", workers, settings);
  const percentOfCeiling = Math.round((m.result.requestsPerSecond / ceiling.perSecond) * 1000) / 10;
  return { ...m, percentOfCeiling, targetPercent: LOGIN_TARGET_PERCENT, met: percentOfCeiling >= LOGIN_TARGET_PERCENT };
}
