import { fork, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
// The service's own password code and parameters, so the ceiling follows any change to them.
import { argon2Passwords, DEFAULT_HASH_PARAMS, type HashParams } from "../../apps/users/src/credentials/passwords.ts";
import type { VerifierMessage, VerifierReport } from "./argon2-verifier.ts";
import { NODE_FLAGS } from "./child.ts";
import { percentile } from "./closed-loop.ts";
import { backgroundLoad, runMeter, warnSteal } from "./machine.ts";

export interface Argon2Ceiling {
  params: HashParams;
  /** os.availableParallelism() of this machine: one verifier process per core. */
  cores: number;
  /** How long the verifier processes verified, all at once. */
  seconds: number;
  /** Verifies per second of each verifier process. */
  processRates: number[];
  /** The ceiling: the sum of processRates, the password checks per second the machine does with every core on nothing else. */
  perSecond: number;
  /** CPU time the verifier processes got over their wall time (0..1): below ~0.9, other work shared their cores and the ceiling is low. */
  cpuShare: number;
  /** CPU time of the verifier processes (every thread) per verify: the core-time one verify costs when they all run at once. */
  cpuMsPerVerify: number;
  /** Informational: one verify at a time in the bench process (the machine otherwise idle). */
  verifies: number;
  verifyMedianMs: number;
  verifyMinMs: number;
  verifyMaxMs: number;
  /** Busy share of the machine's CPU just before the timing (other work skews it). */
  backgroundLoad: number;
  /** CPU time stolen by the hypervisor during the timing (0..1). */
  steal: number | undefined;
}

const SAMPLES = 25;
const VERIFIER = fileURLToPath(new URL("./argon2-verifier.ts", import.meta.url));
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * The argon2id ceiling as issue 13 defines it: one verifier process per core,
 * all verifying a real hash (the service's code and parameters) at once for
 * `seconds`, their rates summed. Run it while the server is idle. One verify
 * timed alone in this process is kept as an informational figure.
 */
export async function measureArgon2Ceiling(seconds = 5, samples = SAMPLES): Promise<Argon2Ceiling> {
  const background = await backgroundLoad();
  if (background > 0.15)
    console.warn(
      `argon2id ceiling: ${(background * 100).toFixed(0)}% of the CPU is busy before the timing: it will be off`,
    );
  const passwords = argon2Passwords(DEFAULT_HASH_PARAMS);
  const password = "bench ceiling password";
  const phc = await passwords.hash(password);
  const cores = availableParallelism();
  const meter = runMeter();
  const runs = await verifiersAtOnce(cores, phc, password, seconds * 1000);
  const processRates = runs.map((d) => (d.verifies * 1000) / d.ms);
  const cpuShare = runs.reduce((a, d) => a + d.cpuMs, 0) / runs.reduce((a, d) => a + d.ms, 0);
  if (cpuShare < 0.9)
    console.warn(
      `argon2id ceiling: the verifier processes got ${(cpuShare * 100).toFixed(0)}% of their cores (other work ran beside them): the ceiling is low`,
    );
  const times = await timeOneByOne(passwords, phc, password, samples);
  const steal = meter().steal;
  warnSteal("argon2id ceiling", steal);
  return {
    params: DEFAULT_HASH_PARAMS,
    cores,
    seconds,
    processRates: processRates.map((r) => round(r, 1)),
    perSecond: round(
      processRates.reduce((a, b) => a + b, 0),
      1,
    ),
    cpuShare: round(cpuShare),
    cpuMsPerVerify: round(runs.reduce((a, d) => a + d.cpuMs, 0) / runs.reduce((a, d) => a + d.verifies, 0), 3),
    verifies: samples,
    verifyMedianMs: round(percentile(times, 50)),
    verifyMinMs: round(times[0]!),
    verifyMaxMs: round(times[times.length - 1]!),
    backgroundLoad: round(background),
    steal,
  };
}

type Done = Extract<VerifierReport, { kind: "done" }>;

/** What each of `count` verifier processes did, started together once all are loaded and warm. */
async function verifiersAtOnce(count: number, phc: string, password: string, ms: number): Promise<Done[]> {
  const children = Array.from({ length: count }, () =>
    fork(VERIFIER, [], { execArgv: NODE_FLAGS, stdio: ["ignore", "inherit", "inherit", "ipc"] }),
  );
  try {
    const reports = children.map((c) => reportsOf(c));
    await Promise.all(reports.map((r) => r.next("ready")));
    const done = reports.map((r) => r.next("done"));
    for (const c of children) c.send({ kind: "go" } satisfies VerifierMessage);
    return await Promise.all(done);
  } finally {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill();
  }

  function reportsOf(c: ChildProcess) {
    const waiting = new Map<string, (r: VerifierReport) => void>();
    const failed = new Promise<never>((_, reject) => {
      c.on("message", (r: VerifierReport) =>
        r.kind === "failed" ? reject(new Error(`argon2 verifier: ${r.error}`)) : waiting.get(r.kind)?.(r),
      );
      c.once("exit", (code) => reject(new Error(`argon2 verifier exited (${code}) before reporting`)));
    });
    failed.catch(() => {}); // raced below; an exit after the last report is expected
    c.send({ kind: "setup", phc, password, ms } satisfies VerifierMessage);
    return {
      next<K extends VerifierReport["kind"]>(kind: K): Promise<Extract<VerifierReport, { kind: K }>> {
        const report = new Promise<Extract<VerifierReport, { kind: K }>>((resolve) =>
          waiting.set(kind, resolve as (r: VerifierReport) => void),
        );
        return Promise.race([report, failed]);
      },
    };
  }
}

/** Times of `samples` verifies one after the other in this process, sorted. */
async function timeOneByOne(
  passwords: ReturnType<typeof argon2Passwords>,
  phc: string,
  password: string,
  samples: number,
): Promise<number[]> {
  await passwords.verify(phc, password); // warm-up: first allocation of the 19 MiB block, code paths
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    const ok = await passwords.verify(phc, password);
    times.push(performance.now() - t0);
    if (!ok) throw new Error("argon2 ceiling: the verify of the right password failed");
  }
  return times.sort((a, b) => a - b);
}
