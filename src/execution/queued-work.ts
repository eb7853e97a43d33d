/**
 * Estimates the work waiting in the pool's queue from the queries answered so far.
 *
 * The engine hands each run's queries out heaviest first (by a guess from the database's size), so
 * the first answers of a run are its slowest, and their mean overstates what is left of it: for one
 * Spider system, 5-20× after its first 16-200 answers (its queries replayed in the engine's order,
 * with the times one run measured), which started a second process that a single system never
 * repays. A run answered to its end is a fair sample, heavy queries and light ones alike, and the
 * runs still queued (each system's predictions) are like it; so the mean estimates the queue only
 * once a run has been answered whole. Until then `of` says nothing, and the pool goes by the work
 * already done, which catches heavy workloads (BIRD's queries, a hang) early.
 */
export class QueuedWorkEstimate {
  private answers = 0;
  private runsAnswered = 0;
  /** The time of every answer so far. */
  spentMs = 0;

  add(ms: number): void {
    this.answers++;
    this.spentMs += ms;
  }

  /** A run's last query was answered. */
  runAnswered(): void {
    this.runsAnswered++;
  }

  /** Milliseconds of work in `queued` queries, or undefined until a run has been answered whole. */
  of(queued: number): number | undefined {
    return this.runsAnswered > 0 && this.answers > 0 ? (this.spentMs / this.answers) * queued : undefined;
  }
}
