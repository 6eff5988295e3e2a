import type { PeerComparisons } from "../scenarios/peer.ts";
import type { UserScenarios } from "../scenarios/users.ts";

/** Issue 31's goals for the figures below. */
export const CPU_GOALS = { login: 0.85, patch: 0.85, cc: 1.5, introspect: 1.0 } as const;

/**
 * What the server itself controls, from /proc of its processes over the same
 * run's references: for login and patch, the argon2 ceiling's verifier
 * core-time per verify over the server's CPU per request (1.0: a login costs
 * the server exactly one verify); for client_credentials and introspection,
 * requests per server CPU-second against the peer's (the median of the
 * rounds' ratios). Undefined where a scenario did not run or /proc is missing.
 */
export interface CpuEfficiency {
  login?: number;
  patch?: number;
  /** Per round, in order. */
  loginRounds: number[];
  patchRounds: number[];
  cc?: number;
  introspect?: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : undefined);

export function cpuEfficiency(peer: PeerComparisons | undefined, u: UserScenarios | undefined): CpuEfficiency {
  const perVerifyUs = u ? u.argon2Ceiling.cpuMsPerVerify * 1000 : undefined;
  const of = (cpuRounds: (number | undefined)[] | undefined) =>
    (cpuRounds ?? []).filter((c): c is number => !!c && !!perVerifyUs).map((c) => round2(perVerifyUs! / c));
  const loginRounds = of(u?.cpuRounds.login);
  const patchRounds = of(u?.cpuRounds.patch);
  return {
    login: median(loginRounds),
    patch: median(patchRounds),
    loginRounds,
    patchRounds,
    cc: peer?.client_credentials?.cpuRatio,
    introspect: peer?.introspection?.cpuRatio,
  };
}

const fx = (n: number | undefined, unit = "") => (n === undefined ? "-" : `${n.toFixed(2)}${unit}`);

/** The summary line: `cpu: login X, patch X, cc Xx, introspect Xx`. */
export function cpuLine(e: CpuEfficiency): string {
  return `cpu: login ${fx(e.login)}, patch ${fx(e.patch)}, cc ${fx(e.cc, "x")}, introspect ${fx(e.introspect, "x")}`;
}
