/**
 * Standard normal CDF and quantile, accurate to ~1e-15 (CDF) and ~1e-14 (quantile).
 *
 * Why not simple-statistics: its `cumulativeStdNormalProbability` reads a table rounded to
 * two decimals of z and four of Φ, and `probit` goes through an approximate inverse erf
 * (~1e-3 relative); the published figures (σ_gap, g*, Wilson bounds) need four significant digits.
 */

const SQRT_2PI = Math.sqrt(2 * Math.PI);

/** Standard normal density φ(x). */
function normalPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / SQRT_2PI;
}

/**
 * Φ(x). For |x| < 3 Marsaglia's Taylor series Φ(x) = ½ + φ(x)·Σ x^(2k+1)/(2k+1)!!, which
 * converges fast there; in the tails Laplace's continued fraction for the Mills ratio, which
 * keeps relative accuracy where 1 − Φ is tiny.
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x === Infinity) return 1;
  if (x === -Infinity) return 0;
  const ax = Math.abs(x);
  if (ax < 3) {
    let term = x;
    let sum = x;
    for (let k = 1; k < 200; k++) {
      term *= (x * x) / (2 * k + 1);
      sum += term;
      if (Math.abs(term) < 1e-17 * Math.abs(sum)) break;
    }
    return 0.5 + normalPdf(x) * sum;
  }
  if (ax > 40) return x > 0 ? 1 : 0;
  // Upper tail Q(ax) = φ(ax) / (ax + 1/(ax + 2/(ax + 3/(ax + ...)))), evaluated bottom-up.
  let cf = ax;
  for (let k = 60; k >= 1; k--) cf = ax + k / cf;
  const tail = normalPdf(ax) / cf;
  return x > 0 ? 1 - tail : tail;
}

// Acklam's rational approximation (relative error 1.15e-9), then polished by one Halley step.
const A = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
const B = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
const C = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
const D = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
const P_LOW = 0.02425;

/** Φ⁻¹(p); p = 0 → −Infinity, p = 1 → Infinity, p outside [0, 1] or NaN → NaN. */
export function normalQuantile(p: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  let x: number;
  if (p < P_LOW) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((C[0]! * q + C[1]!) * q + C[2]!) * q + C[3]!) * q + C[4]!) * q + C[5]!) / ((((D[0]! * q + D[1]!) * q + D[2]!) * q + D[3]!) * q + 1);
  } else if (p <= 1 - P_LOW) {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((A[0]! * r + A[1]!) * r + A[2]!) * r + A[3]!) * r + A[4]!) * r + A[5]!) * q) / (((((B[0]! * r + B[1]!) * r + B[2]!) * r + B[3]!) * r + B[4]!) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -(((((C[0]! * q + C[1]!) * q + C[2]!) * q + C[3]!) * q + C[4]!) * q + C[5]!) / ((((D[0]! * q + D[1]!) * q + D[2]!) * q + D[3]!) * q + 1);
  }
  // One Halley step against the accurate CDF takes Acklam's 1e-9 to double precision.
  const e = normalCdf(x) - p;
  const u = e / normalPdf(x);
  x = x - u / (1 + (x * u) / 2);
  return x;
}
