/**
 * A small L2-regularized logistic regression fitted by Newton's method, for score fusion
 * (2–3 inputs). Inputs are standardized inside, so the penalty treats them alike.
 */
export interface LogisticModel {
  weights: number[];
  bias: number;
  mean: number[];
  scale: number[];
}

export function fitLogistic(X: readonly (readonly number[])[], y: readonly number[], opts: { l2?: number; iterations?: number } = {}): LogisticModel {
  const n = X.length;
  const d = X[0]?.length ?? 0;
  const l2 = opts.l2 ?? 1e-2;
  const mean = Array.from({ length: d }, (_, j) => X.reduce((s, x) => s + x[j]!, 0) / Math.max(1, n));
  const scale = Array.from({ length: d }, (_, j) => {
    const v = X.reduce((s, x) => s + (x[j]! - mean[j]!) ** 2, 0) / Math.max(1, n);
    return v > 1e-12 ? Math.sqrt(v) : 1;
  });
  const Z = X.map((x) => [1, ...x.map((v, j) => (v - mean[j]!) / scale[j]!)]);
  const w = new Array<number>(d + 1).fill(0);
  for (let it = 0; it < (opts.iterations ?? 25); it++) {
    const g = new Array<number>(d + 1).fill(0);
    const H = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    for (let i = 0; i < n; i++) {
      const z = Z[i]!;
      const p = sigmoid(dot(w, z));
      const r = p - y[i]!;
      const s = Math.max(p * (1 - p), 1e-9);
      for (let a = 0; a <= d; a++) {
        g[a]! += r * z[a]!;
        for (let b = 0; b <= d; b++) H[a]![b]! += s * z[a]! * z[b]!;
      }
    }
    // The bias is not penalized.
    for (let a = 1; a <= d; a++) {
      g[a]! += l2 * w[a]!;
      H[a]![a]! += l2;
    }
    H[0]![0]! += 1e-9;
    const step = solve(H, g);
    let maxStep = 0;
    for (let a = 0; a <= d; a++) {
      w[a]! -= step[a]!;
      maxStep = Math.max(maxStep, Math.abs(step[a]!));
    }
    if (maxStep < 1e-8) break;
  }
  return { bias: w[0]!, weights: w.slice(1), mean, scale };
}

export function predictLogistic(m: LogisticModel, x: readonly number[]): number {
  let s = m.bias;
  for (let j = 0; j < m.weights.length; j++) s += m.weights[j]! * ((x[j]! - m.mean[j]!) / m.scale[j]!);
  return sigmoid(s);
}

export function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Gaussian elimination with partial pivoting; H is small (≤ 4 × 4). */
function solve(H: number[][], g: number[]): number[] {
  const n = g.length;
  const A = H.map((row, i) => [...row, g[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(A[r]![c]!) > Math.abs(A[p]![c]!)) p = r;
    [A[c], A[p]] = [A[p]!, A[c]!];
    const piv = A[c]![c]!;
    if (Math.abs(piv) < 1e-12) continue;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = A[r]![c]! / piv;
      for (let k = c; k <= n; k++) A[r]![k]! -= f * A[c]![k]!;
    }
  }
  return A.map((row, i) => (Math.abs(row[i]!) < 1e-12 ? 0 : row[n]! / row[i]!));
}
