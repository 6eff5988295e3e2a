import { measureArgon2Ceiling, type Argon2Ceiling } from "../lib/argon2-ceiling.ts";
import type { LoadSettings } from "../lib/load.ts";
import { startGatehouse } from "../lib/targets.ts";
import type { RssSample } from "../lib/comparison.ts";
import { openConnections, type LoopMeasured, type Skipped } from "../lib/user-scenario.ts";
import { createBenchApp, registerUsers } from "../lib/users.ts";
import { loginScenario, type LoginMeasured } from "./login.ts";
import { loginOpenLoop, type OpenLoopMeasured } from "./login-open-loop.ts";
import { patchScenario, type PatchMeasured } from "./patch.ts";
import { refreshScenario } from "./refresh.ts";

/** Registered users per connection: logins cycle through them so no account has two logins in flight. */
const USERS_PER_CONNECTION = 4;
// Registration hashes passwords; let the server's thread pool drain before timing argon2 here.
const SETTLE_MS = 1000;

export interface UserScenarios {
  users: number;
  argon2Ceiling: Argon2Ceiling;
  /** The median round of each scenario (by requests per second). */
  login: LoginMeasured | Skipped;
  refresh: LoopMeasured | Skipped;
  patch: PatchMeasured | Skipped;
  /** Logins at a fixed rate (80% of the ceiling), once after the rounds. */
  openLoop?: OpenLoopMeasured;
  /** Requests per second of every round, per scenario. */
  rounds: { login: number[]; refresh: number[]; patch: number[] };
  /** Server CPU µs per request of every round (login and patch), for their CPU efficiency. */
  cpuRounds: { login: (number | undefined)[]; patch: (number | undefined)[] };
  /** RSS (MB) of the server idle and after each scenario of each round. */
  rss: RssSample[];
}

const rate = (m: LoopMeasured | Skipped) => ("skipped" in m ? 0 : m.result.requestsPerSecond);
const cpuOf = (m: LoopMeasured | Skipped) => ("skipped" in m ? undefined : m.cpuMicrosPerRequest);
function medianOf<T extends LoopMeasured | Skipped>(runs: T[]): T {
  return [...runs].sort((a, b) => rate(a) - rate(b))[Math.floor(runs.length / 2)]!;
}

/**
 * The user scenarios on one `npm start` (PostgreSQL + Redis): set-up (an
 * application, its entry point and users), the argon2id ceiling (one
 * verifier process per core) while the server is idle, then logins, refresh rotations and patches.
 */
export type UserScenarioName = "login" | "refresh" | "patch" | "login_open_loop";

export async function userScenarios(
  settings: LoadSettings,
  rounds: number,
  only: (name: UserScenarioName) => boolean,
): Promise<UserScenarios> {
  const target = await startGatehouse();
  const conns = openConnections(target, settings.connections);
  try {
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const rss: RssSample[] = [{ when: "idle", mb: target.child.rssMb() }];
    const app = await createBenchApp(target);
    const count = settings.connections * USERS_PER_CONNECTION;
    console.log(`users: registering ${count} users`);
    const users = await registerUsers(target, app, count);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const argon2Ceiling = await measureArgon2Ceiling();
    console.log(
      `argon2id ceiling: ${argon2Ceiling.perSecond}/s = ${argon2Ceiling.cores} verifier processes at once (${argon2Ceiling.processRates.join(" + ")}/s); one verify alone ${argon2Ceiling.verifyMedianMs} ms (median of ${argon2Ceiling.verifies})`,
    );
    rss.push({ when: `${count} users registered`, mb: target.child.rssMb() });
    const runs = {
      login: [] as (LoginMeasured | Skipped)[],
      refresh: [] as (LoopMeasured | Skipped)[],
      patch: [] as (PatchMeasured | Skipped)[],
    };
    const notChosen = (name: string): Skipped => ({ name, skipped: "not chosen by BENCH_ONLY" });
    for (let round = 1; round <= rounds; round++) {
      console.log(`user scenarios: round ${round} of ${rounds}`);
      runs.login.push(
        only("login") ? await loginScenario(target, app, users, conns, argon2Ceiling, settings) : notChosen("login"),
      );
      if (only("login")) rss.push({ when: `round ${round}: after login`, mb: target.child.rssMb() });
      runs.refresh.push(
        only("refresh") ? await refreshScenario(target, app, users, conns, settings) : notChosen("refresh"),
      );
      if (only("refresh")) rss.push({ when: `round ${round}: after refresh`, mb: target.child.rssMb() });
      runs.patch.push(
        only("patch") ? await patchScenario(target, app, users, conns, argon2Ceiling, settings) : notChosen("patch"),
      );
      if (only("patch")) rss.push({ when: `round ${round}: after patch`, mb: target.child.rssMb() });
    }
    const openLoop = only("login_open_loop")
      ? await loginOpenLoop(target, app, users, conns, argon2Ceiling, settings)
      : undefined;
    if (openLoop) rss.push({ when: "after the open-loop login", mb: target.child.rssMb() });
    return {
      ...(openLoop ? { openLoop } : {}),
      users: count,
      argon2Ceiling,
      login: medianOf(runs.login),
      refresh: medianOf(runs.refresh),
      patch: medianOf(runs.patch),
      rounds: { login: runs.login.map(rate), refresh: runs.refresh.map(rate), patch: runs.patch.map(rate) },
      cpuRounds: { login: runs.login.map(cpuOf), patch: runs.patch.map(cpuOf) },
      rss,
    };
  } catch (err) {
    console.error(`${target.name} output:\n${target.child.output()}`);
    throw err;
  } finally {
    for (const c of conns) c.close();
    await target.stop();
  }
}
