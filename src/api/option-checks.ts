import { UserError } from '../errors.js';

/** A numeric option at least `min` (and whole unless `integer` is false); an absent one passes. */
export function atLeast(name: string, v: number | undefined, min: number, integer = true): void {
  if (v === undefined) return;
  if (!Number.isFinite(v) || v < min || (integer && !Number.isInteger(v))) {
    throw new UserError(`--${name} must be a ${integer ? 'whole ' : ''}number ≥ ${min} (got ${String(v)})`);
  }
}

/** A whole-number option; `--seed` above all: the PRNG keeps only a 32-bit integer, so 1.5 would run as 1 while the report said 1.5. */
export function wholeNumber(name: string, v: number | undefined): void {
  if (v !== undefined && !Number.isInteger(v)) throw new UserError(`--${name} must be a whole number (got ${String(v)})`);
}
