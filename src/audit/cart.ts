/**
 * A small CART classifier (Gini impurity, binary target, axis-aligned thresholds).
 * Written here because the decision plane needs only depth 2–4 trees on a few hundred
 * rows and about 20 features, and an npm dependency for that would weigh more than this file.
 */
export type CartNode = { leaf: true; p: number; n: number } | { leaf: false; feature: number; threshold: number; left: CartNode; right: CartNode };

export interface CartOptions {
  maxDepth: number;
  /** Smallest number of rows in a leaf (default 5). */
  minLeaf?: number;
}

/** Fits a tree predicting P(y = 1). Ties between splits go to the lower feature index and threshold: deterministic. */
export function fitCart(X: readonly (readonly number[])[], y: readonly number[], opts: CartOptions): CartNode {
  const idx = X.map((_, i) => i);
  return grow(X, y, idx, opts.maxDepth, opts.minLeaf ?? 5);
}

export function predictCart(node: CartNode, x: readonly number[]): number {
  let cur = node;
  while (!cur.leaf) cur = x[cur.feature]! <= cur.threshold ? cur.left : cur.right;
  return cur.p;
}

function leaf(y: readonly number[], idx: readonly number[]): CartNode {
  let pos = 0;
  for (const i of idx) pos += y[i]!;
  // Laplace smoothing: a pure leaf of 5 rows is not certainty.
  return { leaf: true, p: (pos + 1) / (idx.length + 2), n: idx.length };
}

function gini(pos: number, n: number): number {
  if (n === 0) return 0;
  const p = pos / n;
  return 2 * p * (1 - p) * n;
}

function grow(X: readonly (readonly number[])[], y: readonly number[], idx: number[], depth: number, minLeaf: number): CartNode {
  let total = 0;
  for (const i of idx) total += y[i]!;
  if (depth === 0 || idx.length < 2 * minLeaf || total === 0 || total === idx.length) return leaf(y, idx);
  const parent = gini(total, idx.length);
  let best = { gain: 1e-9, feature: -1, threshold: 0 };
  const nf = X[idx[0]!]!.length;
  for (let f = 0; f < nf; f++) {
    const sorted = idx.slice().sort((a, b) => X[a]![f]! - X[b]![f]! || a - b);
    let leftPos = 0;
    for (let k = 0; k < sorted.length - 1; k++) {
      leftPos += y[sorted[k]!]!;
      const v = X[sorted[k]!]![f]!;
      const next = X[sorted[k + 1]!]![f]!;
      if (v === next) continue;
      const nl = k + 1;
      const nr = sorted.length - nl;
      if (nl < minLeaf || nr < minLeaf) continue;
      const gain = parent - gini(leftPos, nl) - gini(total - leftPos, nr);
      if (gain > best.gain) best = { gain, feature: f, threshold: (v + next) / 2 };
    }
  }
  if (best.feature < 0) return leaf(y, idx);
  const left: number[] = [];
  const right: number[] = [];
  for (const i of idx) (X[i]![best.feature]! <= best.threshold ? left : right).push(i);
  return {
    leaf: false,
    feature: best.feature,
    threshold: best.threshold,
    left: grow(X, y, left, depth - 1, minLeaf),
    right: grow(X, y, right, depth - 1, minLeaf),
  };
}
