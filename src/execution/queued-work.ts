/**
 * Estimates the work waiting in the pool's queue from the times of the queries answered so far.
 *
 * The engine hands each run's queries out heaviest first (by a guess from the database's size), so
 * the first answers are the slowest of their run, and their plain mean overstated the work left
 * 5-20× after 16-200 answers (one Spider system's queries replayed in the engine's order, with the
 * times one run measured), which started a second process that a single system never repays. So
 * the mean counts the last SAMPLE answers only (the part of the queue being worked through now)
 * and leaves out their slowest tenth (the heavy queries a run starts with); in that replay it came
 * within 5% of the work left after 200 answers, and under it later, when the predictions' own
 * heavy queries came. The pool therefore also counts the work already done (`spentMs`), which
 * catches heavy workloads (BIRD's queries, a hang) early.
 */
export class QueuedWorkEstimate {
  static readonly SAMPLE = 200;
  /** Answer times, a ring of the last SAMPLE. */
  private readonly recent = new Float64Array(QueuedWorkEstimate.SAMPLE);
  private answers = 0;
  /** The time of every answer so far. */
  spentMs = 0;

  add(ms: number): void {
    this.recent[this.answers % QueuedWorkEstimate.SAMPLE] = ms;
    this.answers++;
    this.spentMs += ms;
  }

  /** Milliseconds of work in `queued` queries, or undefined before SAMPLE answers. */
  of(queued: number): number | undefined {
    if (this.answers < QueuedWorkEstimate.SAMPLE) return undefined;
    const sorted = this.recent.slice().sort();
    const kept = Math.ceil(sorted.length * 0.9);
    let sum = 0;
    for (let i = 0; i < kept; i++) sum += sorted[i]!;
    return (sum / kept) * queued;
  }
}
