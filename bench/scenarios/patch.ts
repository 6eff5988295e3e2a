import type { Argon2Ceiling } from "../lib/argon2-ceiling.ts";
import type { LoopWorker } from "../lib/closed-loop.ts";
import type { HttpConnection } from "../lib/http.ts";
import type { LoadSettings } from "../lib/load.ts";
import type { Target } from "../lib/targets.ts";
import { measureLoop, type LoopMeasured, type Skipped } from "../lib/user-scenario.ts";
import { logIn, patchNameRequest, type BenchApp, type BenchUser } from "../lib/users.ts";

export interface PatchMeasured extends LoopMeasured {
  /** Each patch re-authenticates with the password: one argon2id verify, so the same ceiling bounds it. */
  percentOfCeiling: number;
}

/**
 * Patches of the user's own name (`PATCH /activityid/v1/user/update/{object_id}`
 * with the user's access token and current password, 200 each): each
 * connection logs one user in and patches it with a new value every time
 * (the same value again would be a 304). Skipped while the gateway answers
 * the route with 404 route_not_found (not deployed yet).
 */
export async function patchScenario(
  t: Target,
  app: BenchApp,
  users: BenchUser[],
  conns: HttpConnection[],
  ceiling: Argon2Ceiling,
  settings: LoadSettings,
): Promise<PatchMeasured | Skipped> {
  const sessions = await Promise.all(conns.map((conn, i) => logIn(conn, app, users[i]!)));
  const probe = await conns[0]!.send(patchNameRequest(app, users[0]!, sessions[0]!, "Bench probe"));
  if (probe.status === 404 && probe.body.includes("route_not_found")) {
    const skipped =
      "PATCH /activityid/v1/user/update/{object_id} answers 404 route_not_found: the route is not deployed in this build";
    console.warn(`patch: skipped, ${skipped}`);
    return { name: "patch", skipped };
  }
  if (probe.status !== 200) throw new Error(`patch: the probe answered ${probe.status}: ${probe.body.slice(0, 500)}`);

  const workers = conns.map((conn, i): LoopWorker => {
    let n = 0;
    return {
      conn,
      // A value the user does not have yet, every time.
      next: () => patchNameRequest(app, users[i]!, sessions[i]!, `Bench ${i} ${++n}`),
      settle: () => true,
    };
  });
  const m = await measureLoop(t, "patch", workers, settings);
  return { ...m, percentOfCeiling: Math.round((m.result.requestsPerSecond / ceiling.perSecond) * 1000) / 10 };
}
