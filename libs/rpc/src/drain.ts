// SIGTERM (contract section 16): a process first says it is going (/readyz
// 503) while it keeps serving, then stops accepting, lets what is in flight
// finish and exits. One per process, handed to its servers.

/** Longest a stopping process waits for requests and RPCs in flight. */
export const DRAIN_GRACE_MS = 25_000;

export interface Drain {
  /** Whether SIGTERM came: /readyz answers 503 and responses close their keep-alive connections. */
  readonly draining: boolean;
  start(): void;
}

export function createDrain(): Drain {
  let on = false;
  return {
    get draining() {
      return on;
    },
    start() {
      on = true;
    },
  };
}

/** The /readyz body of a draining process (peers tell it from a failure: another replica answers instead). */
export const DRAINING_STATUS = "draining";
