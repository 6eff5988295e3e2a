import { availableParallelism } from "node:os";
// The service's own password code and parameters, so the ceiling follows any change to them.
import { argon2Passwords, DEFAULT_HASH_PARAMS, type HashParams } from "../../apps/users/src/credentials/passwords.ts";
import { percentile } from "./closed-loop.ts";
import { backgroundLoad, runMeter, warnSteal } from "./machine.ts";

export interface Argon2Ceiling {
  params: HashParams;
  /** os.availableParallelism() of this machine. */
  cores: number;
  verifies: number;
  /** Median time of one argon2id verify, sequential, in this process. */
  verifyMedianMs: number;
  verifyMinMs: number;
  verifyMaxMs: number;
  /** cores / verify time: password checks per second the machine can do at most. */
  perSecond: number;
  /**
   * Diagnostic, not the ceiling: verifies per second with `cores` of them
   * running at once in this process. Below perSecond when the cores slow each
   * other down (shared caches and memory bandwidth: each verify walks 19 MiB twice).
   */
  allCoresPerSecond: number;
  /** Busy share of the machine's CPU just before the timing (other work skews it). */
  backgroundLoad: number;
  /** CPU time stolen by the hypervisor during the timing (0..1). */
  steal: number | undefined;
}

const SAMPLES = 25;
const ALL_CORES_ROUNDS = 10;
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Times one verify of a correct password, one at a time (run it while the
 * server is idle), and derives the machine's ceiling of password checks per
 * second: every core doing nothing but argon2id.
 */
export async function measureArgon2Ceiling(samples = SAMPLES): Promise<Argon2Ceiling> {
  const background = await backgroundLoad();
  if (background > 0.15) console.warn(`argon2id ceiling: ${(background * 100).toFixed(0)}% of the CPU is busy before the timing: it will be off`);
  const meter = runMeter();
  const passwords = argon2Passwords(DEFAULT_HASH_PARAMS);
  const password = "bench ceiling password";
  const phc = await passwords.hash(password);
  await passwords.verify(phc, password); // warm-up: first allocation of the 19 MiB block, code paths
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    const ok = await passwords.verify(phc, password);
    times.push(performance.now() - t0);
    if (!ok) throw new Error("argon2 ceiling: the verify of the right password failed");
  }
  times.sort((a, b) => a - b);
  const median = percentile(times, 50);
  const cores = availableParallelism();

  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: cores }, async () => {
      for (let i = 0; i < ALL_CORES_ROUNDS; i++) await passwords.verify(phc, password);
    }),
  );
  const allCoresPerSecond = (cores * ALL_CORES_ROUNDS * 1000) / (performance.now() - t0);
  const steal = meter().steal;
  warnSteal("argon2id ceiling", steal);
  return {
    params: DEFAULT_HASH_PARAMS,
    cores,
    verifies: samples,
    verifyMedianMs: round(median),
    verifyMinMs: round(times[0]!),
    verifyMaxMs: round(times[times.length - 1]!),
    perSecond: round((cores * 1000) / median, 1),
    allCoresPerSecond: round(allCoresPerSecond, 1),
    backgroundLoad: round(background),
    steal,
  };
}
