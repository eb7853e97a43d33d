import { binomialCdf } from './beta.js';

export interface McNemarResult {
  b: number;
  c: number;
  pValue: number;
  method: string;
}

/**
 * Exact McNemar test on the discordant pairs: b items right for system A only, c for B only.
 * Under H0 b ~ Binomial(b + c, ½); two-sided p = min(1, 2·P(X ≤ min(b, c))). Exact rather
 * than χ² because leaderboard neighbours often differ on only a handful of items.
 * b + c = 0 → p = 1 (no evidence of a difference).
 */
export function mcnemarExact(b: number, c: number): McNemarResult {
  for (const [name, v] of [['b', b], ['c', c]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${name} must be a non-negative integer (got ${v})`);
  }
  const n = b + c;
  const pValue = n === 0 ? 1 : Math.min(1, 2 * binomialCdf(Math.min(b, c), n, 0.5));
  return { b, c, pValue, method: 'exact McNemar: two-sided binomial test on discordant pairs, p = min(1, 2·P(X ≤ min(b,c))), X ~ Bin(b+c, 1/2)' };
}
