// One verifier process of the argon2id ceiling (bench/lib/argon2-ceiling.ts):
// forked once per core. It verifies the hash it is sent with the service's own
// password code (@node-rs/argon2, the hash's parameters), one verify after the
// other, for a fixed time once told to go, and reports how many it finished.
import { argon2Passwords } from "../../apps/users/src/credentials/passwords.ts";

export type VerifierMessage = { kind: "setup"; phc: string; password: string; ms: number } | { kind: "go" };
export type VerifierReport =
  { kind: "ready" } | { kind: "done"; verifies: number; ms: number; cpuMs: number } | { kind: "failed"; error: string };

const send = (m: VerifierReport) => process.send!(m);
const passwords = argon2Passwords(undefined, 1);
let setup: Extract<VerifierMessage, { kind: "setup" }> | undefined;

async function run(s: NonNullable<typeof setup>) {
  let verifies = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  while (performance.now() - t0 < s.ms) {
    if (!(await passwords.verify(s.phc, s.password))) throw new Error("the verify of the right password failed");
    verifies++;
  }
  // Counted to the end of the last verify, so the overshoot past `ms` is in both terms.
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  // CPU time against wall time: below 1 when other work took the core (argon2 runs on libuv's pool, a thread of this process).
  send({ kind: "done", verifies, ms, cpuMs: (cpu.user + cpu.system) / 1000 });
}

process.on("message", (m: VerifierMessage) => {
  const fail = (err: unknown) => send({ kind: "failed", error: String(err) });
  if (m.kind === "setup") {
    setup = m;
    // Warm-up: the first allocation of the 19 MiB block, the code paths.
    passwords.verify(m.phc, m.password).then(() => send({ kind: "ready" }), fail);
  } else if (setup) {
    run(setup).then(() => process.disconnect(), fail);
  }
});
