import type { Cell } from './cell.js';

/**
 * Python's view of SQLite values, which the official evaluators compare with `==`, `set` and
 * `hash`: 1 == 1.0, '1' != 1, None == None, and ints compare exactly with floats (2**63-1 != 2.0**63).
 * `cellKey` maps values that Python calls equal to the same string.
 */
export function cellKey(v: Cell): string {
  if (v === null) return 'N';
  if (typeof v === 'number') {
    // A safe integer's String is its exact digits; a larger integral float (1e300) needs BigInt's.
    if (Number.isSafeInteger(v)) return `i${String(v)}`;
    if (Number.isInteger(v)) return `i${BigInt(v).toString()}`;
    return `f${String(v)}`;
  }
  if (typeof v === 'bigint') return `i${v.toString()}`;
  if (typeof v === 'string') return `s${v}`;
  return `b${Buffer.from(v).toString('hex')}`;
}

/** A tuple's key: equal keys ⇔ Python tuples compare equal. Length-prefixed, so unambiguous. */
export function rowKey(row: readonly Cell[]): string {
  let key = '';
  for (const cell of row) {
    const k = cellKey(cell);
    key += `${k.length}:${k}`;
  }
  return key;
}

/** The same key from cell keys already computed. */
export function joinCellKeys(keys: readonly string[]): string {
  let key = '';
  for (const k of keys) key += `${k.length}:${k}`;
  return key;
}

/** Python's `str(x) + str(type(x))`, the sort key test-suite-sql-eval uses to unorder a row. */
export function pythonStrWithType(v: Cell, integralReal = false): string {
  if (v === null) return "None<class 'NoneType'>";
  if (typeof v === 'bigint') return `${v.toString()}<class 'int'>`;
  if (typeof v === 'number') {
    // Integral numbers are SQLite INTEGERs unless the result marks them as REALs (ExecResult.integralReals).
    return Number.isInteger(v) && !integralReal ? `${BigInt(v).toString()}<class 'int'>` : `${pythonFloatRepr(v)}<class 'float'>`;
  }
  if (typeof v === 'string') return `${v}<class 'str'>`;
  return `b'${Buffer.from(v).toString('latin1')}'<class 'bytes'>`;
}

/** Python's repr of a float: shortest round-trip digits, scientific below 1e-4 or from 1e16. */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mant, expStr] = x.toExponential().split('e') as [string, string];
  const exp = Number(expStr);
  if (exp < -4 || exp >= 16) {
    return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  const s = x.toFixed(Math.max(0, (mant.split('.')[1]?.length ?? 0) - exp));
  return s.includes('.') ? s : `${s}.0`;
}

/** Python's `<` on str: code point order (JS compares UTF-16 units, which differs above U+FFFF). */
export function comparePythonStrings(a: string, b: string): number {
  if (a === b) return 0;
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}
