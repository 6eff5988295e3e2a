import type { RssSample } from "./comparison.ts";
import type { ServiceRss } from "../scenarios/services-memory.ts";

const mb = (v: number | undefined) => (v === undefined ? "-" : `${v} MB`);

/** The memory figures on stdout: every process's RSS idle and after each run. */
export function printMemory(
  series: { process: string; samples: RssSample[] }[],
  services: ServiceRss[] | undefined,
  embedded: ServiceRss[] | undefined,
) {
  console.log("\nmemory (VmRSS)");
  for (const s of series) {
    if (s.samples.length === 0) continue;
    const values = s.samples.map((x) => x.mb).filter((v): v is number => v !== undefined);
    const peak = values.length ? Math.max(...values) : undefined;
    console.log(`${s.process}: ${s.samples.map((x) => `${x.when} ${mb(x.mb)}`).join(", ")}; peak ${mb(peak)}`);
  }
  if (services) console.log(`start:services idle: ${services.map((s) => `${s.process} ${mb(s.mb)}`).join(", ")}`);
  if (embedded) console.log(`embedded npm start idle: ${embedded.map((s) => `${s.process} ${mb(s.mb)}`).join(", ")}\n`);
}
