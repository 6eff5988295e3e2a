import { readdirSync, readFileSync } from "node:fs";

/**
 * Where a server's CPU goes, by kind of thread (`/proc/<pid>/task/<tid>/comm`):
 * `main` (the event loop: HTTP, RPC, SQL and Redis clients, JSON), `pool`
 * (libuv's workers: the argon2 verifies and the RS256 signatures), `v8`
 * (the garbage collector's and compiler's helpers), `other`. It tells a
 * login's verify as the server runs it from everything around it.
 */
export type ThreadKind = "main" | "pool" | "v8" | "other";
export type ThreadTicks = Record<ThreadKind, number>;

const kindOf = (comm: string): ThreadKind =>
  comm === "MainThread" || comm === "node"
    ? "main"
    : comm.startsWith("libuv-worker")
      ? "pool"
      : comm.startsWith("V8")
        ? "v8"
        : "other";

/** CPU clock ticks (utime + stime) of each kind of thread of `pid` so far; undefined where /proc is missing. */
export function threadTicks(pid: number): ThreadTicks | undefined {
  const ticks: ThreadTicks = { main: 0, pool: 0, v8: 0, other: 0 };
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        ticks[kindOf(comm)] += Number(fields[11]) + Number(fields[12]);
      } catch {
        // A thread that ended between the listing and the read: its time is gone from both snapshots' sums.
      }
    }
  } catch {
    return undefined;
  }
  return ticks;
}

/** µs of each kind of thread per request between two snapshots (ticks are 10 ms: meaningful over seconds). */
export function perRequestMicros(before: ThreadTicks, after: ThreadTicks, requests: number): ThreadTicks | undefined {
  if (requests === 0) return undefined;
  const per = (k: ThreadKind) => Math.round(((after[k] - before[k]) * 10_000) / requests);
  return { main: per("main"), pool: per("pool"), v8: per("v8"), other: per("other") };
}

export const formatThreads = (t: ThreadTicks) =>
  `main ${t.main} µs, pool ${t.pool} µs (argon2, signatures), V8 helpers ${t.v8} µs, other ${t.other} µs`;
