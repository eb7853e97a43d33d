import { UserError } from '../errors.js';

/**
 * A rule an option's value must pass, written in its command's option table (src/api/option-table.ts):
 * given the value, every option (camelCase, defaults filled in) and the flag's name, it returns what is
 * wrong (the user's error message) or nothing.
 */
export type OptionCheck = (value: unknown, options: Readonly<Record<string, unknown>>, flag: string) => string | undefined;

/** Why a numeric option is not at least `min` (and whole unless `integer` is false); nothing when it is or is absent. */
export function belowMin(name: string, v: number | undefined, min: number, integer = true): string | undefined {
  if (v === undefined) return undefined;
  if (!Number.isFinite(v) || v < min || (integer && !Number.isInteger(v))) return `--${name} must be a ${integer ? 'whole ' : ''}number ≥ ${min} (got ${String(v)})`;
  return undefined;
}

/** A numeric option at least `min` (and whole unless `integer` is false); an absent one passes. */
export function atLeast(name: string, v: number | undefined, min: number, integer = true): void {
  const wrong = belowMin(name, v, min, integer);
  if (wrong) throw new UserError(wrong);
}

/** A whole number (any sign), or absent; `--seed` above all: the PRNG keeps only a 32-bit integer, so 1.5 would run as 1 while the report said 1.5. */
export const whole: OptionCheck = (v, _o, flag) => (v !== undefined && !Number.isInteger(v) ? `--${flag} must be a whole number (got ${String(v)})` : undefined);

/** A time in seconds above 0. */
export const positiveSeconds: OptionCheck = (v, _o, flag) => (typeof v === 'number' && !(v > 0) ? `--${flag} must be a positive number of seconds` : undefined);

/** A count: a non-negative whole number; `required` refuses an absent one. */
export const count =
  (required: boolean): OptionCheck =>
  (v, _o, flag) => {
    if (v === undefined) return required ? `missing --${flag} (a non-negative whole number)` : undefined;
    return !Number.isInteger(v) || (v as number) < 0 ? `--${flag} must be a non-negative whole number (got ${String(v)})` : undefined;
  };

/** A fraction in [0, 1] (`open`: strictly between 0 and 1), or absent; a percent gets a hint. */
export const fraction =
  (open: boolean): OptionCheck =>
  (value, _o, flag) => {
    if (value === undefined) return undefined;
    const v = value as number;
    if (Number.isFinite(v) && (open ? v > 0 && v < 1 : v >= 0 && v <= 1)) return undefined;
    const hint = v > 1 && v <= 100 ? ` (a fraction, not a percent: ${v / 100}?)` : '';
    return `--${flag} must be a fraction ${open ? 'strictly between 0 and 1' : 'in [0, 1]'} (got ${String(v)})${hint}`;
  };

/** A rule across options: refused with `message` when `wrong` holds. */
export const refuse =
  (wrong: (value: unknown, options: Readonly<Record<string, unknown>>) => boolean, message: string): OptionCheck =>
  (v, o) => (wrong(v, o) ? message : undefined);
