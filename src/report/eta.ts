/**
 * A smoothed ETA: the rate is an exponentially weighted moving average of the rates measured over
 * successive windows of at least `windowMs`, each window counted at most `maxJump` times the current
 * average, so a burst (results reused from the run store, a run of cheap queries) or a stall moves the
 * estimate gradually instead of making it jump (6 s → 2 min → 8 s), while a lasting change of speed is
 * followed within a few windows. Pure: the caller passes the clock.
 */
export class EtaEstimator {
  private rate: number | undefined;
  private lastT: number;
  private lastDone: number;

  constructor(
    startMs: number,
    startDone = 0,
    /** Weight of the newest window's rate. */
    private readonly alpha = 0.2,
    private readonly windowMs = 1000,
    private readonly maxJump = 3,
  ) {
    this.lastT = startMs;
    this.lastDone = startDone;
  }

  /** Records progress at time `nowMs`; returns the smoothed items per second (undefined before the first window). */
  update(done: number, nowMs: number): number | undefined {
    const dt = nowMs - this.lastT;
    if (dt >= this.windowMs) {
      const windowRate = ((done - this.lastDone) * 1000) / dt;
      this.rate =
        this.rate === undefined || this.rate === 0
          ? windowRate
          : this.alpha * Math.min(windowRate, this.maxJump * this.rate) + (1 - this.alpha) * this.rate;
      this.lastT = nowMs;
      this.lastDone = done;
    }
    return this.rate;
  }

  /** Seconds left for `remaining` items at the smoothed rate; undefined while unknown. */
  secondsLeft(remaining: number): number | undefined {
    if (remaining <= 0) return 0;
    return this.rate !== undefined && this.rate > 0 ? remaining / this.rate : undefined;
  }
}

/** An ETA for humans: "12s", "3m05s", "1h02m"; "?" while unknown. */
export function formatEta(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
