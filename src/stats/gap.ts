import { confidencePercent } from './intervals.js';
import { normalCdf, normalQuantile } from './normal.js';

export interface GapInput {
  /** Benchmark size N. */
  n: number;
  /** e: number of tasks with wrong gold. Give this or errorRate, not both. */
  flawed?: number;
  /** e/N as a fraction; e = rate·N (need not be an integer). */
  errorRate?: number;
  /** One-sided confidence for the threshold (default 0.95 → z = 1.645). */
  confidence?: number;
}

export interface GapResult {
  n: number;
  flawed: number;
  errorRate: number;
  sigmaGap: number;
  threshold: number;
  z: number;
  confidence: number;
  method: string;
}

/**
 * SALUS's bound on how far annotation noise alone can move the accuracy gap between two
 * systems: each of e flawed tasks can shift either system's score by 1/N, so the gap's
 * noise has σ_gap = 2√e/N; a gap below g* = z·σ_gap (one-sided z) is within the noise bound:
 * worst-case wrong gold alone could make it (a bound on annotation noise, not a test). Invalid
 * input (both or neither of flawed/errorRate, out-of-range values) throws RangeError; N = 0 gives NaN.
 */
export function gapThreshold(input: GapInput): GapResult {
  const { n, flawed, errorRate } = input;
  const confidence = input.confidence ?? 0.95;
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer (got ${n})`);
  if ((flawed === undefined) === (errorRate === undefined)) throw new RangeError('give exactly one of flawed and errorRate');
  if (flawed !== undefined && !(flawed >= 0 && flawed <= n)) throw new RangeError(`flawed must be between 0 and n = ${n} (got ${flawed})`);
  if (errorRate !== undefined && !(errorRate >= 0 && errorRate <= 1)) throw new RangeError(`errorRate must be a fraction in [0, 1] (got ${errorRate})`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1) (got ${confidence})`);
  const e = flawed ?? errorRate! * n;
  const rate = flawed !== undefined ? (n === 0 ? NaN : flawed / n) : errorRate!;
  const z = normalQuantile(confidence);
  const sigmaGap = n === 0 ? NaN : (2 * Math.sqrt(e)) / n;
  return {
    n,
    flawed: e,
    errorRate: rate,
    sigmaGap,
    threshold: z * sigmaGap,
    z,
    confidence,
    method: `SALUS gap bound: sigma_gap = 2*sqrt(e)/N, threshold g* = z*sigma_gap with one-sided z = ${z.toFixed(4)} (${confidencePercent(confidence)}%)`,
  };
}

/**
 * Φ(gap/σ_gap): under SALUS's noise model (the gap's annotation noise ~ Normal(0, σ_gap)), the chance
 * that noise leaves a true gap of this size with its sign. It is not the probability that the system
 * ahead is truly better (that would need a prior over true gaps, and sampling is not in it), so no
 * output prints it; it serves the expected Kendall tau only. σ = 0: 1 for a positive gap, 0 for a
 * negative one, ½ for a tie.
 */
export function outperformanceProbability(gap: number, sigmaGap: number): number {
  if (Number.isNaN(gap) || Number.isNaN(sigmaGap) || sigmaGap < 0) return NaN;
  if (sigmaGap === 0) return gap > 0 ? 1 : gap < 0 ? 0 : 0.5;
  return normalCdf(gap / sigmaGap);
}

/**
 * SALUS's expected Kendall tau of a ranking under annotation noise: the mean over system
 * pairs of 2Φ(|g_ij|/σ_gap) − 1, g_ij the score difference (scores and σ in the same unit,
 * fractions). Each pair contributes the probability of keeping its order minus that of
 * flipping it. Fewer than two systems → NaN: there is no pair to order, so no tau (this
 * matches kendallTauB, which is NaN for n < 2).
 */
export function expectedKendallTau(scores: readonly number[], sigmaGap: number): number {
  const k = scores.length;
  if (k < 2) return NaN;
  let sum = 0;
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      const g = Math.abs(scores[i]! - scores[j]!);
      // A tied pair has no order to keep: contributes 2·½ − 1 = 0, also when σ = 0.
      sum += g === 0 ? 0 : 2 * outperformanceProbability(g, sigmaGap) - 1;
    }
  }
  return sum / ((k * (k - 1)) / 2);
}

export interface PairNoiseInput {
  /** Benchmark size N. */
  n: number;
  /** Wrong-gold tasks on which exactly one of the two systems is right: each can move the gap by up to 2/N. */
  discordant: number;
  /** Wrong-gold tasks both systems get wrong: each can move the gap by up to 1/N (their answers may differ). */
  bothWrong: number;
  confidence?: number;
}

export interface PairNoiseBound {
  discordant: number;
  bothWrong: number;
  sigma: number;
  threshold: number;
}

/**
 * SALUS's noise bound for one pair of systems with per-item results. SALUS lets each of e wrong golds move
 * the gap by ±2/N (σ_gap = 2√e/N). Per item only some can: a wrong gold both systems match moves neither
 * (fixing it treats them alike), one exactly one matches moves the gap by up to 2/N, one both miss by up
 * to 1/N. With the same normal form, σ = √(4·discordant + bothWrong)/N and the bound z·σ; when every wrong
 * gold is discordant it is SALUS's g*.
 */
export function pairNoiseBound(input: PairNoiseInput): PairNoiseBound {
  const { n, discordant, bothWrong } = input;
  const z = normalQuantile(input.confidence ?? 0.95);
  const sigma = n === 0 ? NaN : Math.sqrt(4 * discordant + bothWrong) / n;
  return { discordant, bothWrong, sigma, threshold: z * sigma };
}

/**
 * The same bound when only the count e of wrong golds is known, not which tasks: worst case, they fall
 * first on the pair's discordant tasks (b + c of them), then on the tasks both get wrong.
 */
export function pairNoiseBoundFromCount(n: number, flawed: number, discordant: number, bothWrong: number, confidence?: number): PairNoiseBound {
  const d = Math.min(flawed, discordant);
  const w = Math.min(Math.max(0, flawed - d), bothWrong);
  return pairNoiseBound({ n, discordant: d, bothWrong: w, confidence });
}
