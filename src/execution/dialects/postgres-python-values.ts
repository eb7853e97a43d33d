import { pythonFloatRepr } from '../../values/python-value.js';

/**
 * The Python value psycopg2 makes of a PostgreSQL column's text, written as the bird-dialects fixtures write it
 * (test/fidelity/fixtures/bird-dialects/README.md): a JSON number is an `int`, a string a `str`, null `None`,
 * a boolean a `bool`, and tagged objects for the rest. It is what the official evaluator compares, so sqlboard's
 * dialect comparison is built on it (docs/dialects.md).
 */
export type PythonValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | { float: string }
  | { decimal: string }
  | { date: string }
  | { datetime: string }
  | { time: string }
  | { datetimetz: string }
  | { timedelta: string }
  | { bytes: string }
  | { unhashable: string }
  | { other: string; text: string };

/** Type OIDs whose values are read as text (PGlite / pg type parsers), so that nothing is lost before conversion. */
export const TEXT_PARSED_OIDS: readonly number[] = [
  16, 17, 18, 19, 20, 21, 23, 25, 26, 114, 142, 700, 701, 1042, 1043, 1082, 1083, 1114, 1184, 1186, 1266, 1700, 2950, 3802,
];

const INT = new Set([20, 21, 23, 26]);
const FLOAT = new Set([700, 701]);
const TEXT = new Set([18, 19, 25, 142, 1042, 1043, 2950]);
// Array types of the built-in types (pg_type.typarray): psycopg2 makes any of them a list.
const ARRAYS = new Set([
  143, 199, 1000, 1001, 1002, 1005, 1007, 1009, 1014, 1015, 1016, 1021, 1022, 1028, 1115, 1182, 1183, 1185, 1187, 1231,
  1270, 2951, 3807,
]);

/** psycopg2's conversion of one value, given PostgreSQL's text output (DateStyle ISO) and the column's type OID. */
export function pythonValueOf(text: string | null, oid: number): PythonValue {
  if (text === null) return null;
  if (INT.has(oid)) {
    const n = BigInt(text);
    return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
  }
  // psycopg2 parses float4 and float8 alike with Python's float() of the server's (shortest) text.
  if (FLOAT.has(oid)) return { float: pythonFloatRepr(Number(text)) };
  if (oid === 1700) return { decimal: pythonDecimalStr(text) };
  if (TEXT.has(oid)) return text;
  if (oid === 16) return text === 't';
  if (oid === 17) return { bytes: text.startsWith('\\x') ? text.slice(2) : Buffer.from(text, 'latin1').toString('hex') };
  if (oid === 1082) return { date: text };
  if (oid === 1114) return { datetime: isoDatetime(text) };
  if (oid === 1083) return { time: text };
  if (oid === 1184) return { datetimetz: utcInstant(text) };
  if (oid === 1186) return { timedelta: intervalMicros(text) };
  if (oid === 114 || oid === 3802) return pythonJson(text);
  if (ARRAYS.has(oid)) return { unhashable: 'list' };
  return { other: String(oid), text };
}

/** Python's str(Decimal(text)) for PostgreSQL's numeric output (plain digits, never an exponent). */
export function pythonDecimalStr(text: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text; // NaN, Infinity, -Infinity print as PostgreSQL prints them
  const negative = text.startsWith('-');
  const [intPart, frac = ''] = (negative ? text.slice(1) : text).split('.') as [string, string?];
  const exp = -frac.length;
  const coeff = (intPart + frac).replace(/^0+(?=\d)/, '');
  const adjusted = exp + coeff.length - 1;
  let body: string;
  if (adjusted >= -6) {
    if (exp === 0) body = coeff;
    else if (coeff.length > -exp) body = `${coeff.slice(0, coeff.length + exp)}.${coeff.slice(coeff.length + exp)}`;
    else body = `0.${'0'.repeat(-exp - coeff.length)}${coeff}`;
  } else {
    body = `${coeff[0]}${coeff.length > 1 ? `.${coeff.slice(1)}` : ''}E-${Math.abs(adjusted)}`;
  }
  return negative ? `-${body}` : body;
}

/** datetime.isoformat() of a timestamp PostgreSQL printed as "YYYY-MM-DD HH:MM:SS[.ffffff]". */
function isoDatetime(text: string): string {
  const [date, time = '00:00:00'] = text.split(' ') as [string, string?];
  const [hms, frac] = time.split('.') as [string, string?];
  return frac ? `${date}T${hms}.${frac.padEnd(6, '0')}` : `${date}T${hms}`;
}

/**
 * An aware datetime's instant, as ISO text in UTC with microseconds: psycopg2's aware datetimes are equal when
 * their instants are, whatever the offset. PostgreSQL prints "YYYY-MM-DD HH:MM:SS[.ffffff]+HH[:MM[:SS]]".
 */
function utcInstant(text: string): string {
  const m = /^(\d{4,})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?$/.exec(text);
  if (!m) return text;
  const [, y, mo, d, h, mi, sec, frac = '', sign, oh, om = '0', os = '0'] = m;
  const offset = (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60 + Number(os));
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec)) - offset * 1000;
  return `${new Date(ms).toISOString().slice(0, 19)}.${frac.padEnd(6, '0').slice(0, 6)}Z`;
}

/**
 * psycopg2's timedelta of an interval printed in IntervalStyle postgres ("1 year 2 mons 3 days 04:05:06.5"), as
 * total microseconds: a year is 365 days, a month 30, as psycopg2 counts them.
 */
function intervalMicros(text: string): string {
  let days = 0n;
  let micros = 0n;
  const re = /(-?\d+) (year|mon|day)s?|(-?)(\d+):(\d\d):(\d\d)(?:\.(\d+))?/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[2]) days += BigInt(m[1]!) * (m[2] === 'year' ? 365n : m[2] === 'mon' ? 30n : 1n);
    else {
      const t = (BigInt(m[4]!) * 3600n + BigInt(m[5]!) * 60n + BigInt(m[6]!)) * 1_000_000n + BigInt((m[7] ?? '').padEnd(6, '0').slice(0, 6) || '0');
      micros += m[3] === '-' ? -t : t;
    }
  }
  return (days * 86_400_000_000n + micros).toString();
}

/**
 * psycopg2 parses json and jsonb with json.loads: objects and arrays become dict and list, which Python cannot
 * hash (the evaluator's set() raises); scalars become str, int, float, bool or None.
 */
function pythonJson(text: string): PythonValue {
  const t = text.trim();
  if (t.startsWith('{')) return { unhashable: 'dict' };
  if (t.startsWith('[')) return { unhashable: 'list' };
  if (/^-?\d+$/.test(t)) {
    const n = BigInt(t);
    return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
  }
  const parsed: unknown = JSON.parse(t);
  if (typeof parsed === 'number') return { float: pythonFloatRepr(parsed) };
  if (parsed === null || typeof parsed === 'string' || typeof parsed === 'boolean') return parsed;
  return { other: 'json', text };
}
