import { withoutRows, type ExecutionEngine } from './engine.js';
import type { ExecRequest, ExecResult } from './types.js';

/** Two requests (by index) whose results are compared once both exist. */
export interface ResultPair {
  gold: number;
  pred: number;
  onBoth: (gold: ExecResult, pred: ExecResult) => void;
}

/**
 * Runs the requests and calls each pair's `onBoth` as soon as both its results exist, while
 * other queries still run. A result's rows are dropped once every pair that uses it is done,
 * so that big results die young; the returned results carry no rows. With `needRows: false`
 * no rows reach this process at all: results carry only their rowSet (enough for birdEqual).
 */
export async function runPairs(
  engine: ExecutionEngine,
  requests: ExecRequest[],
  pairs: ResultPair[],
  onProgress?: (done: number, total: number) => void,
  opts: { needRows?: boolean } = {},
): Promise<ExecResult[]> {
  const users: number[][] = requests.map(() => []);
  const open = new Array<number>(requests.length).fill(0);
  pairs.forEach((p, k) => {
    users[p.gold]!.push(k);
    users[p.pred]!.push(k);
    open[p.gold]!++;
    open[p.pred]!++;
  });
  const golds = new Set(pairs.map((p) => p.gold));
  const held: (ExecResult | undefined)[] = new Array(requests.length);
  const done = new Array<boolean>(pairs.length).fill(false);
  const release = (ri: number): void => {
    if (--open[ri]! === 0) held[ri] = withoutRows(held[ri]!);
  };
  return engine.run(
    requests,
    onProgress,
    (ri, result) => {
      // A result no pair uses is compared with nothing: keep none of its rows.
      held[ri] = open[ri] === 0 ? withoutRows(result) : result;
      for (const k of users[ri]!) {
        const p = pairs[k]!;
        const g = held[p.gold];
        const r = held[p.pred];
        if (done[k] || !g || !r) continue;
        done[k] = true;
        p.onBoth(g, r);
        release(p.gold);
        release(p.pred);
      }
    },
    // Golds first: a prediction's result then rarely waits for its gold.
    { keepRows: false, needRows: opts.needRows ?? true, first: (ri) => golds.has(ri) },
  );
}
