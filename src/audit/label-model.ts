/**
 * Generative label model: Dawid–Skene EM over the vote matrix alone (no labels, no features).
 *
 * Why Dawid–Skene rather than Snorkel's matrix completion: most of our LFs are unipolar
 * (they only ever vote "error", or only "correct"), and what they say lies in *when they
 * fire*. Dawid–Skene with abstention as a third outcome models that directly — each LF has
 * its own class-conditional distribution over {correct, error, abstain} — while Snorkel's
 * completion works on the overlap matrix of non-abstaining votes and needs extra machinery
 * for unipolar LFs. EM is also exact for this naive-Bayes model, deterministic (initialized
 * from the LFs' majority vote, which also fixes the label-swap symmetry) and linear in
 * N·M per iteration, far inside the CPU budget.
 */
export interface LabelModelInput {
  n: number;
  m: number;
  /** Row-major N × M votes: +1 gold correct, -1 gold wrong, 0 abstain. */
  votes: Int8Array;
  /** Columns to fit on (default: all); the others are ignored. */
  columns?: readonly number[];
  /**
   * Tasks whose class is a fact (a decisive LF proved the gold wrong): their posterior is held
   * at 1 through EM, so the other LFs' and agents' parameters are learned with them as anchors.
   */
  clampError?: readonly boolean[];
}

export interface LabelModelFit {
  /** P(gold wrong) per task. */
  posterior: Float64Array;
  /**
   * log P(wrong | votes) − log P(right | votes) per task, from the votes alone (a clamped task's
   * too): unlike the posterior it does not saturate at 0 or 1, so it orders every vote pattern.
   */
  logOdds: Float64Array;
  /** Estimated share of wrong gold. */
  errorPrior: number;
  /** Per fitted column: P(LF is right | it votes), mixing both classes by the prior. NaN for columns not fitted. */
  accuracy: number[];
  /** Per column, per class (0 correct, 1 error), per outcome (0 votes correct, 1 votes error, 2 abstains). */
  theta: number[][][];
  iterations: number;
}

const OUT = (v: number): number => (v > 0 ? 0 : v < 0 ? 1 : 2);

export function fitLabelModel(input: LabelModelInput, opts: { maxIter?: number; tol?: number; smoothing?: number } = {}): LabelModelFit {
  const { n, m, votes } = input;
  const cols = input.columns ?? Array.from({ length: m }, (_, j) => j);
  const maxIter = opts.maxIter ?? 200;
  const tol = opts.tol ?? 1e-7;
  const s = opts.smoothing ?? 1;
  const post = new Float64Array(n);
  const logOdds = new Float64Array(n);
  // Start from the soft majority of the non-abstaining votes.
  for (let i = 0; i < n; i++) {
    let neg = 0;
    let tot = 0;
    for (const j of cols) {
      const v = votes[i * m + j]!;
      if (v !== 0) {
        tot++;
        if (v < 0) neg++;
      }
    }
    post[i] = tot === 0 ? 0.5 : 0.1 + 0.8 * (neg / tot);
    if (input.clampError?.[i]) post[i] = 1;
  }
  const theta: number[][][] = Array.from({ length: m }, () => [
    [1 / 3, 1 / 3, 1 / 3],
    [1 / 3, 1 / 3, 1 / 3],
  ]);
  let prior = 0.5;
  let iterations = 0;
  const logT = new Float64Array(m * 6);
  for (; iterations < maxIter; iterations++) {
    // M-step.
    let sumP = 0;
    for (let i = 0; i < n; i++) sumP += post[i]!;
    prior = (sumP + 1) / (n + 2);
    for (const j of cols) {
      const cnt = [
        [s, s, s],
        [s, s, s],
      ];
      for (let i = 0; i < n; i++) {
        const o = OUT(votes[i * m + j]!);
        cnt[1]![o]! += post[i]!;
        cnt[0]![o]! += 1 - post[i]!;
      }
      for (let y = 0; y < 2; y++) {
        const tot = cnt[y]![0]! + cnt[y]![1]! + cnt[y]![2]!;
        for (let o = 0; o < 3; o++) {
          theta[j]![y]![o] = cnt[y]![o]! / tot;
          logT[j * 6 + y * 3 + o] = Math.log(theta[j]![y]![o]!);
        }
      }
    }
    // E-step.
    let delta = 0;
    const lp1 = Math.log(prior);
    const lp0 = Math.log(1 - prior);
    for (let i = 0; i < n; i++) {
      let a0 = lp0;
      let a1 = lp1;
      for (const j of cols) {
        const o = OUT(votes[i * m + j]!);
        a0 += logT[j * 6 + o]!;
        a1 += logT[j * 6 + 3 + o]!;
      }
      logOdds[i] = a1 - a0;
      const p = input.clampError?.[i] ? 1 : 1 / (1 + Math.exp(a0 - a1));
      delta = Math.max(delta, Math.abs(p - post[i]!));
      post[i] = p;
    }
    if (delta < tol) {
      iterations++;
      break;
    }
  }
  const fitted = new Set(cols);
  const accuracy = theta.map((t, j) => {
    if (!fitted.has(j)) return NaN;
    const right = (1 - prior) * t[0]![0]! + prior * t[1]![1]!;
    const voted = (1 - prior) * (t[0]![0]! + t[0]![1]!) + prior * (t[1]![0]! + t[1]![1]!);
    return right / voted;
  });
  return { posterior: post, logOdds, errorPrior: prior, accuracy, theta, iterations };
}
