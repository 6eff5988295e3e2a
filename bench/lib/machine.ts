import { cpus } from "node:os";

const busyAndTotal = () =>
  cpus().reduce(
    (acc, c) => {
      const t = c.times;
      const total = t.user + t.nice + t.sys + t.idle + t.irq;
      return { busy: acc.busy + total - t.idle, total: acc.total + total };
    },
    { busy: 0, total: 0 },
  );

/**
 * Fraction (0..1) of the machine's CPU busy over `ms` while the bench itself
 * is idle: other work that would skew the comparison (tests running beside it).
 */
export async function backgroundLoad(ms = 1000): Promise<number> {
  const a = busyAndTotal();
  await new Promise((r) => setTimeout(r, ms));
  const b = busyAndTotal();
  return b.total === a.total ? 0 : (b.busy - a.busy) / (b.total - a.total);
}
