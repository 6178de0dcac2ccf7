/**
 * Least time an action gets once its element has been found, in ms: an element that appears just before the
 * deadline should still be clicked or read rather than fail on a 1 ms budget.
 */
export const ACTION_FLOOR_MS = 1_000;

/** A step's time budget: `timeoutMs` covers waiting for the element; the action gets the rest (see ACTION_FLOOR_MS). */
export class Deadline {
  private readonly end: number;

  constructor(readonly timeoutMs: number) {
    this.end = Date.now() + timeoutMs;
  }

  /** Milliseconds left, at least 1 (Playwright treats 0 as "no timeout"). */
  remaining(): number {
    return Math.max(1, this.end - Date.now());
  }

  /** Budget for the action after the element was found: what is left, but at least {@link ACTION_FLOOR_MS}. */
  forAction(): number {
    return Math.max(ACTION_FLOOR_MS, this.end - Date.now());
  }

  /** True once the budget is spent. */
  expired(): boolean {
    return Date.now() >= this.end;
  }
}
