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
  // The pairs that use each request, as one flat list: request ri's are users[from[ri]] up to
  // users[from[ri + 1]] (a run has one pair per system and task: no array per request).
  const n = requests.length;
  const from = new Int32Array(n + 1);
  for (const p of pairs) {
    from[p.gold + 1]!++;
    from[p.pred + 1]!++;
  }
  for (let ri = 0; ri < n; ri++) from[ri + 1]! += from[ri]!;
  const users = new Int32Array(from[n]!);
  const next = from.slice(0, n);
  pairs.forEach((p, k) => {
    users[next[p.gold]!++] = k;
    users[next[p.pred]!++] = k;
  });
  /** Per request: the pairs not yet compared that use it. */
  const open = new Int32Array(n);
  for (let ri = 0; ri < n; ri++) open[ri] = from[ri + 1]! - from[ri]!;
  const isGold = new Uint8Array(n);
  for (const p of pairs) isGold[p.gold] = 1;
  const held: (ExecResult | undefined)[] = new Array(n);
  const done = new Uint8Array(pairs.length);
  const release = (ri: number): void => {
    if (--open[ri]! === 0) held[ri] = withoutRows(held[ri]!);
  };
  return engine.run(
    requests,
    onProgress,
    (ri, result) => {
      // A result no pair uses is compared with nothing: keep none of its rows.
      held[ri] = open[ri] === 0 ? withoutRows(result) : result;
      for (let u = from[ri]!; u < from[ri + 1]!; u++) {
        const k = users[u]!;
        const p = pairs[k]!;
        const g = held[p.gold];
        const r = held[p.pred];
        if (done[k] || !g || !r) continue;
        done[k] = 1;
        p.onBoth(g, r);
        release(p.gold);
        release(p.pred);
      }
    },
    // Golds first: a prediction's result then rarely waits for its gold.
    { keepRows: false, needRows: opts.needRows ?? true, first: (ri) => isGold[ri] === 1 },
  );
}
