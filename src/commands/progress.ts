import { createRequire } from 'node:module';
import type { RunHooks } from '../api/types.js';
import { EtaEstimator, formatEta } from '../report/eta.js';
import { batchProgressLine } from './batch-progress.js';

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/** How far a stage got, for the message an interrupted run prints (src/commands/interrupt.ts). */
export interface StageCount {
  label: string;
  done: number;
  total: number;
  /** False when the stage's results are not kept in the run store (VES timings): a re-run redoes them. */
  kept: boolean;
}

/** Every stage this process reported progress for, in order, and the bars still drawn. */
const stages: StageCount[] = [];
const drawn = new Set<{ abort(): void }>();

/** The stages reported so far; stops every bar still drawn, clearing its line and restoring the cursor and line wrap. */
export function abortProgress(): StageCount[] {
  for (const bar of drawn) bar.abort();
  drawn.clear();
  return stages;
}

/**
 * A progress bar (done/total, rate, ETA) on stderr, only when stderr is a terminal, so
 * piped or `--json` runs keep their streams clean. Rate and ETA are smoothed (EtaEstimator).
 * The counts are recorded either way, for the message of an interrupted run.
 */
export function terminalProgress(label: string, stream: NodeJS.WriteStream = process.stderr, opts: { kept?: boolean } = {}): Progress {
  const count: StageCount = { label, done: 0, total: 0, kept: opts.kept ?? true };
  let counted = false;
  const record = (done: number, total: number): void => {
    if (!counted) stages.push(count);
    counted = true;
    count.done = done;
    count.total = total;
  };
  if (!stream.isTTY) return { update: record, stop: () => {} };
  // Loaded only for a terminal: piped and --json runs, and every test, never draw a bar.
  const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${label} [{bar}] {value}/{total} | {rate}/s | ETA {eta}`,
      hideCursor: true,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let eta: EtaEstimator | undefined;
  const live = {
    abort(): void {
      // stop() shows the cursor, turns line wrap back on and ends the bar's line; then that line is cleared.
      bar.stop();
      stream.write('\x1b[1A\r\x1b[2K');
    },
  };
  return {
    update(done, total) {
      record(done, total);
      const now = Date.now();
      if (!started) {
        bar.start(total, done, { rate: '?', eta: '?' });
        eta = new EtaEstimator(now, done);
        started = true;
        drawn.add(live);
      }
      const rate = eta!.update(done, now);
      bar.setTotal(total);
      bar.update(done, { rate: rate === undefined ? '?' : rate.toFixed(0), eta: formatEta(eta!.secondsLeft(total - done)) });
    },
    stop() {
      if (started) bar.stop();
      drawn.delete(live);
    },
  };
}

/**
 * The CLI's watch on a library run (src/api/types.ts RunHooks): one bar per stage, the previous
 * stage's bar stopped when the next one starts, and a batch wave's state on its own line (the
 * bars stop first). `stop()` ends whatever is drawn; call it when the run ends or fails.
 */
export function runProgress(stream: NodeJS.WriteStream = process.stderr): Required<Pick<RunHooks, 'onProgress' | 'onBatchProgress'>> & { stop(): void } {
  const bars = new Map<string, Progress>();
  let current: Progress | undefined;
  const batchLine = batchProgressLine(stream);
  const stop = (): void => {
    for (const bar of bars.values()) bar.stop();
  };
  return {
    onProgress(stage, done, total) {
      let bar = bars.get(stage);
      if (!bar) {
        // VES timings are not kept in the run store: an interrupted run says a re-run redoes them.
        bar = terminalProgress(stage, stream, { kept: stage !== 'timing (VES)' });
        bars.set(stage, bar);
      }
      if (bar !== current) current?.stop();
      current = bar;
      bar.update(done, total);
    },
    onBatchProgress(p) {
      stop();
      batchLine(p);
    },
    stop,
  };
}
