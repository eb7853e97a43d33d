import type { PythonValue } from './postgres-python-values.js';

/**
 * A key per Python equality class, for the values the dialect drivers return: two values get the same key exactly
 * when Python's `==` (and so `set`) calls them equal. Numbers compare by exact value across int, bool, float and
 * Decimal (1 == 1.0 == Decimal('1.0') == True; the float 0.1 is not Decimal('0.1')); NaN equals nothing, itself
 * included; dates, datetimes, times, text and bytes equal only their own kind. docs/dialects.md has the table.
 */
export function pythonKey(v: PythonValue, nanSeed: () => number = nextNan): string {
  if (v === null) return 'N';
  if (typeof v === 'boolean') return v ? 'n1' : 'n0';
  if (typeof v === 'number') return Number.isInteger(v) ? `n${BigInt(v).toString()}` : `n${exactDecimal(v)}`;
  if (typeof v === 'bigint') return `n${v.toString()}`;
  if (typeof v === 'string') return `s${v}`;
  if ('float' in v) {
    const x = Number(v.float === 'inf' ? 'Infinity' : v.float === '-inf' ? '-Infinity' : v.float);
    if (Number.isNaN(x)) return `nan#${nanSeed()}`;
    return `n${exactDecimal(x)}`;
  }
  if ('decimal' in v) {
    const d = v.decimal;
    if (/nan/i.test(d)) return `nan#${nanSeed()}`;
    if (/^-?inf/i.test(d)) return d.startsWith('-') ? 'n-inf' : 'n+inf';
    return `n${normaliseDecimal(d)}`;
  }
  if ('date' in v) return `d${v.date}`;
  if ('datetime' in v) return `t${v.datetime}`;
  if ('time' in v) return `T${v.time}`;
  if ('datetimetz' in v) return `z${v.datetimetz}`;
  if ('timedelta' in v) return `D${v.timedelta}`;
  if ('bytes' in v) return `b${v.bytes}`;
  if ('unhashable' in v) throw new TypeError(`unhashable type: '${v.unhashable}'`);
  return `o${v.other}:${v.text}`;
}

let nanCount = 0;
function nextNan(): number {
  return ++nanCount;
}

/** A tuple's key (length-prefixed cells, so unambiguous). Throws TypeError for an unhashable cell, as Python does. */
export function pythonRowKey(row: readonly PythonValue[]): string {
  let key = '';
  for (const cell of row) {
    const k = pythonKey(cell);
    key += `${k.length}:${k}`;
  }
  return key;
}

/** The exact decimal expansion of a finite double (every double is a finite binary, hence decimal, fraction). */
export function exactDecimal(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? '+inf' : '-inf';
  if (x === 0) return '0';
  const negative = x < 0;
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, Math.abs(x));
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp: number;
  if (biased === 0) exp = -1074;
  else {
    mantissa |= 1n << 52n;
    exp = biased - 1075;
  }
  let text: string;
  if (exp >= 0) text = (mantissa << BigInt(exp)).toString();
  else {
    const k = -exp;
    const digits = (mantissa * 5n ** BigInt(k)).toString().padStart(k + 1, '0');
    text = `${digits.slice(0, digits.length - k)}.${digits.slice(digits.length - k)}`;
  }
  return (negative ? '-' : '') + normaliseDecimal(text);
}

/** A plain or scientific decimal text in one spelling per value: no leading or trailing zeros, "-0" is "0". */
export function normaliseDecimal(text: string): string {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m) return text;
  const [, sign = '', intPart = '', frac = '', expText] = m;
  let digits = intPart + frac;
  let point = intPart.length + (expText ? Number(expText) : 0);
  const lead = digits.match(/^0*/)![0].length;
  digits = digits.slice(lead);
  point -= lead;
  digits = digits.replace(/0+$/, '');
  if (digits === '') return '0';
  let body: string;
  if (point <= 0) body = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) body = digits + '0'.repeat(point - digits.length);
  else body = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (sign === '-' ? '-' : '') + body;
}
