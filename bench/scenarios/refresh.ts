import type { LoopWorker } from "../lib/closed-loop.ts";
import type { HttpConnection } from "../lib/http.ts";
import type { LoadSettings } from "../lib/load.ts";
import type { Target } from "../lib/targets.ts";
import { measureLoop, type LoopMeasured } from "../lib/user-scenario.ts";
import { logIn, refreshRequest, type BenchApp, type BenchUser } from "../lib/users.ts";

/**
 * Refresh-token rotations (`POST /oauth2/token`, grant refresh_token, the
 * application's client_secret_basic): each connection logs one user in and
 * then rotates that session's chain, one rotation after the other, always
 * presenting the token the previous rotation returned. A non-200 ends the
 * connection: its chain is spent or revoked.
 */
export async function refreshScenario(
  t: Target,
  app: BenchApp,
  users: BenchUser[],
  conns: HttpConnection[],
  settings: LoadSettings,
): Promise<LoopMeasured> {
  const sessions = await Promise.all(conns.map((conn, i) => logIn(conn, app, users[i]!)));
  return measureLoop(t, "refresh", refreshChains(app, conns, sessions), settings);
}

/** One worker per connection rotating its session's chain, always with the token the previous rotation returned. */
export function refreshChains(
  app: BenchApp,
  conns: HttpConnection[],
  sessions: { refreshToken: string }[],
): LoopWorker[] {
  return conns.map((conn, i): LoopWorker => {
    let refreshToken = sessions[i]!.refreshToken;
    return {
      conn,
      next: () => refreshRequest(app, refreshToken),
      settle(res) {
        if (res.status !== 200) return false;
        const body = JSON.parse(res.body) as { refresh_token?: unknown };
        if (typeof body.refresh_token !== "string" || body.refresh_token === refreshToken) {
          throw new Error(`refresh: no new refresh_token in ${res.body.slice(0, 300)}`);
        }
        refreshToken = body.refresh_token;
        return true;
      },
    };
  });
}
