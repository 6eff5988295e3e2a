// Each TOTP time step works once per user (replay protection), and the
// server accepts the steps next to its own (±1, clock drift). A test that
// sends several codes of one secret must not pick them by the clock alone:
// "the current step" at the confirmation and "the previous step" a few
// seconds later are the same step when a 30-second boundary falls in
// between, and the second is refused as already used.

export interface TotpSteps {
  /** A code of a step within the window around now that this sequence has not sent yet. */
  fresh(): string;
}

/**
 * Codes of distinct steps of one secret (`codeAt` = the code at a time in
 * ms). The newest unused step goes first: a code of the next or the current
 * step is still in the window if a boundary passes before the server checks
 * it; the previous step is used only when both others went out in this step.
 */
export function totpSteps(codeAt: (atMs: number) => string, periodMs = 30_000): TotpSteps {
  const sent = new Set<number>();
  return {
    fresh() {
      const now = Math.floor(Date.now() / periodMs);
      const step = [now + 1, now, now - 1].find((s) => !sent.has(s));
      if (step === undefined) throw new Error("every step of the window is spent: a fourth code needs the next step");
      sent.add(step);
      return codeAt(step * periodMs);
    },
  };
}
