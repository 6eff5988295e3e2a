import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../stack-helpers.ts";
import { answerProblem } from "./check.ts";
import { fuzzContext, openApi } from "./fuzz-context.ts";
import {
  hostedFormOperations,
  operationName,
  operations,
  requestArb,
  undocumentedMethods,
  type FuzzRequest,
} from "./requests.ts";

// Contract section 10: no request causes a 5xx, and every error is in its
// envelope. Every operation of /openapi.json gets FUZZ_RUNS generated
// requests (schema-driven, with hostile values), and every undocumented
// method of an OAuth endpoint (405, OPTIONS, CORS preflights) a quarter of
// that, and each hosted page's form posted back with a genuine form token
// and its cookie FUZZ_RUNS, on the embedded drivers and on PostgreSQL + Redis. FUZZ_SEED reproduces a run (a failure prints it);
// FUZZ_ROUTE limits it to the paths containing that text; FUZZ_VERBOSE=1
// prints the statuses per route (how deep the cases get), 2 every 400 body.
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 15_2025;
const RUNS = Number(process.env.FUZZ_RUNS ?? 80);
const ROUTE = process.env.FUZZ_ROUTE ?? "";

// Routes that end the shared session or token go last, in this order, so the others run with a live one.
const LAST = [
  "/activityid/v1/user/logout",
  "/oauth2/revoke",
  "/oauth2/logout",
  "/activityid/v1/user/mfa/totp/disable",
  // The admin API's: the application's secret rotated, the user locked, logged out or erased.
  "/admin/v1/apps/{client_id}/password/rotate",
  "/admin/v1/users/{id}/lock",
  "/admin/v1/users/{id}/logout",
  "/admin/v1/users/{id}",
];

interface Failure {
  route: string;
  problem: string;
  request: FuzzRequest;
  status: number;
  body: string;
}

// One file per driver set (fuzz-embedded.test.ts, fuzz-postgres.test.ts), so
// the two halves, the suite's longest, run on two workers at once.
export function fuzzEveryRoute(mode: string, embedded: boolean): void {
  describe(`schema-driven fuzzing of every route: ${mode}`, () => {
    let s: TestStack;
    beforeAll(async () => {
      s = await startTestStack({ embedded });
    });
    afterAll(() => s?.close());

    it("answers no request with a 5xx or outside its envelope", { timeout: 600_000 }, async () => {
      const ctx = await fuzzContext(s);
      const { doc, resolve } = await openApi(s);
      const documented = operations(doc);
      const undocumented = new Set(undocumentedMethods(documented));
      const ops = [...documented, ...undocumented, ...hostedFormOperations(documented)]
        .filter((o) => o.path.includes(ROUTE))
        .sort((a, b) => LAST.indexOf(a.path) - LAST.indexOf(b.path));
      expect(ops.length).toBeGreaterThan(0);
      const failures: Failure[] = [];
      let cases = 0;
      const statuses = new Map<string, Map<number, number>>();
      for (const [i, op] of ops.entries()) {
        for (const request of fc.sample(requestArb(ctx, op, resolve), {
          seed: SEED + i,
          numRuns: undocumented.has(op) ? Math.ceil(RUNS / 4) : RUNS,
        })) {
          cases++;
          const res = await s.app.inject({
            method: request.method as "GET",
            url: request.url,
            headers: request.headers,
            payload: request.payload,
          });
          const seen = statuses.get(operationName(op)) ?? new Map<number, number>();
          seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
          statuses.set(operationName(op), seen);
          if (process.env.FUZZ_VERBOSE === "2" && res.statusCode === 400)
            console.log(op.method, op.path, res.body.slice(0, 400));
          const problem = answerProblem(request, res);
          if (problem)
            failures.push({
              route: operationName(op),
              problem,
              request,
              status: res.statusCode,
              body: res.body.slice(0, 300),
            });
        }
      }
      const fivexx = failures.filter((f) => f.status >= 500).length;
      console.log(
        `fuzzing (${embedded ? "embedded" : "postgres"}): ${ops.length} operations, ${cases} cases, ${failures.length} failures (${fivexx} 5xx), seed ${SEED}`,
      );
      if (process.env.FUZZ_VERBOSE)
        for (const [r, m] of statuses) console.log(r, JSON.stringify(Object.fromEntries(m)));
      if (failures.length) {
        const byRoute = new Map<string, Failure[]>();
        for (const f of failures) byRoute.set(f.route, [...(byRoute.get(f.route) ?? []), f]);
        const report = [...byRoute].map(([route, fs]) => {
          const f = fs[0]!;
          const payload =
            f.request.payload === undefined ? "" : JSON.stringify(String(f.request.payload).slice(0, 200));
          return `${route}: ${fs.length} × ${f.problem}\n  e.g. ${f.request.method} ${f.request.url} ${JSON.stringify(f.request.headers)} ${payload}\n  → ${f.status} ${f.body}`;
        });
        console.log(`reproduce with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}\n${report.join("\n")}`);
      }
      expect(failures.map((f) => `${f.route}: ${f.problem}`)).toEqual([]);
    });
  });
}
