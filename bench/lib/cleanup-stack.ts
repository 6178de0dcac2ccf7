/**
 * Undo actions run last-in first-out, each at most once, even when an earlier one throws: the benchmark registers
 * one for every child process, database schema and temp directory as soon as it exists.
 */
export class CleanupStack {
  private readonly actions: Array<{ label: string; run: () => Promise<unknown> | unknown }> = [];

  /** Register an undo action. */
  push(label: string, run: () => Promise<unknown> | unknown): void {
    this.actions.push({ label, run });
  }

  /** Run and forget every registered action, newest first; returns the failures (they are not thrown). */
  async run(): Promise<Error[]> {
    const failures: Error[] = [];
    for (let a = this.actions.pop(); a; a = this.actions.pop()) {
      try {
        await a.run();
      } catch (err) {
        failures.push(new Error(`cleanup "${a.label}" failed: ${(err as Error).message}`, { cause: err }));
      }
    }
    return failures;
  }
}
