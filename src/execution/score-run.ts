import type { Benchmark, PredictionSet } from '../benchmark/types.js';
import type { EmInputs } from './em-run.js';
import type { ExecutionEngine } from './engine.js';
import { runEx, type ComparatorName, type ExRun, type HardnessCache } from './ex-run.js';
import { addExactMatch, type MetricName } from './score-metrics.js';
import { addVes, type VesOptions } from './ves-run.js';

export interface ScoreOptions {
  comparator: ComparatorName;
  keepDistinct?: boolean;
  metrics: MetricName[];
  /** Keep the rows of every result in the run store (ExOptions.keepRows). */
  keepRows?: boolean;
  /** Spider hardness levels kept from earlier runs (ExOptions.hardness). */
  hardness?: HardnessCache;
  /** Needed for `em`. */
  em?: EmInputs;
  /** Needed for `ves` / `r-ves`. */
  ves?: VesOptions;
}

export interface ScoreRun extends ExRun {
  metrics: MetricName[];
}

/**
 * Every metric asked for: EX and Soft-F1 from one execution pass, EM from the SQL alone, then
 * (opt-in, slow) VES / R-VES by timing the EX-correct items after the engine is closed, so that
 * no other query runs while they are timed.
 */
export async function runScore(
  bench: Benchmark,
  systems: PredictionSet[],
  engine: ExecutionEngine,
  opts: ScoreOptions,
  progress?: { execute?: (d: number, t: number) => void; time?: (d: number, t: number) => void },
): Promise<ScoreRun> {
  // The execution processes are stopped as soon as every result is in: their exit (the kernel
  // freeing their memory) then overlaps the building of the items.
  let closing: Promise<void> | undefined;
  let run: ExRun;
  try {
    run = await runEx(
      bench,
      systems,
      engine,
      {
        comparator: opts.comparator,
        keepDistinct: opts.keepDistinct ?? false,
        softF1: opts.metrics.includes('soft-f1'),
        keepRows: opts.keepRows ?? false,
        ...(opts.hardness ? { hardness: opts.hardness } : {}),
        onExecuted: () => (closing = engine.close()),
      },
      progress?.execute,
    );
  } finally {
    // Also when runEx throws, the close it may have started is awaited here, not left running.
    await (closing ?? engine.close());
  }
  if (opts.metrics.includes('em') && opts.em) addExactMatch(run, bench, systems, opts.em);
  const ves = opts.metrics.includes('ves');
  const rVes = opts.metrics.includes('r-ves');
  if ((ves || rVes) && opts.ves) await addVes(run, bench, systems, { ves, rVes }, opts.ves, progress?.time);
  return { ...run, metrics: opts.metrics };
}
