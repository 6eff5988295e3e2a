import { measureArgon2Ceiling, type Argon2Ceiling } from "../lib/argon2-ceiling.ts";
import type { LoadSettings } from "../lib/load.ts";
import { startGatehouse } from "../lib/targets.ts";
import { openConnections, type LoopMeasured, type Skipped } from "../lib/user-scenario.ts";
import { createBenchApp, registerUsers } from "../lib/users.ts";
import { loginScenario, type LoginMeasured } from "./login.ts";
import { patchScenario, type PatchMeasured } from "./patch.ts";
import { refreshScenario } from "./refresh.ts";

/** Registered users per connection: logins cycle through them so no account has two logins in flight. */
const USERS_PER_CONNECTION = 4;
// Registration hashes passwords; let the server's thread pool drain before timing argon2 here.
const SETTLE_MS = 1000;

export interface UserScenarios {
  users: number;
  argon2Ceiling: Argon2Ceiling;
  login: LoginMeasured;
  refresh: LoopMeasured;
  patch: PatchMeasured | Skipped;
}

/**
 * The user scenarios on one `npm start` (PostgreSQL + Redis): set-up (an
 * application, its entry point and users), the argon2id ceiling timed in this
 * process while the server is idle, then logins, refresh rotations and patches.
 */
export async function userScenarios(settings: LoadSettings): Promise<UserScenarios> {
  const target = await startGatehouse();
  const conns = openConnections(target, settings.connections);
  try {
    const app = await createBenchApp(target);
    const count = settings.connections * USERS_PER_CONNECTION;
    console.log(`users: registering ${count} users`);
    const users = await registerUsers(target, app, count);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const argon2Ceiling = await measureArgon2Ceiling();
    console.log(
      `argon2id ceiling: ${argon2Ceiling.perSecond}/s = ${argon2Ceiling.cores} cores / ${argon2Ceiling.verifyMedianMs} ms per verify (median of ${argon2Ceiling.verifies})`,
    );
    const login = await loginScenario(target, app, users, conns, argon2Ceiling, settings);
    const refresh = await refreshScenario(target, app, users, conns, settings);
    const patch = await patchScenario(target, app, users, conns, argon2Ceiling, settings);
    return { users: count, argon2Ceiling, login, refresh, patch };
  } catch (err) {
    console.error(`${target.name} output:\n${target.child.output()}`);
    throw err;
  } finally {
    for (const c of conns) c.close();
    await target.stop();
  }
}
