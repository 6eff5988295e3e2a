import type { Logger } from "@gatehouse/logging";

/**
 * Work that continues after an RPC has answered (a sign-in code is generated
 * and queued after the 202, so that the answer's time does not depend on
 * whether the user exists). Failures are logged; `drain` waits for what is
 * running (the module's close).
 */
export function backgroundTasks(logger: Logger) {
  const running = new Set<Promise<void>>();
  return {
    run(what: string, task: () => Promise<void>): void {
      const p = task()
        .catch((err: unknown) => logger.error({ err }, `${what} failed`))
        .finally(() => running.delete(p));
      running.add(p);
    },
    async drain(): Promise<void> {
      await Promise.allSettled([...running]);
    },
  };
}

export type BackgroundTasks = ReturnType<typeof backgroundTasks>;
