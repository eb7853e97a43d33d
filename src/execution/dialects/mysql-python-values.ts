import { pythonFloatRepr } from '../../values/python-value.js';
import { pythonDecimalStr, type PythonValue } from './postgres-python-values.js';

/** What PyMySQL needs to know of a result column: its type code and character set (63 is binary). */
export interface MysqlColumn {
  columnType: number;
  characterSet: number;
}

// MySQL protocol type codes (include/mysql_com.h enum_field_types).
const INTS = new Set([1, 2, 3, 8, 9, 13]); // TINY SHORT LONG LONGLONG INT24 YEAR
const FLOATS = new Set([4, 5]); // FLOAT DOUBLE
const DECIMALS = new Set([0, 246]); // DECIMAL NEWDECIMAL
const TEXT_TYPES = new Set([16, 252, 249, 250, 251, 254, 253, 15, 255]); // BIT, BLOBs, STRING, VAR_STRING, VARCHAR, GEOMETRY
const BINARY_CHARSET = 63;

/**
 * PyMySQL's value for one text-protocol cell, given the server's bytes: TEXT_TYPES in the binary character set stay
 * bytes (BINARY, BLOB, BIT), other text is decoded (utf8mb4); then its decoders: DECIMAL -> Decimal, integers and
 * YEAR -> int, FLOAT/DOUBLE -> float, DATE -> date, DATETIME/TIMESTAMP -> datetime, TIME -> timedelta; a date it
 * cannot parse ('0000-00-00') stays the string; JSON is a str. Written in the bird-dialects fixtures' encoding.
 */
export function pymysqlValueOf(raw: Buffer | null, column: MysqlColumn): PythonValue {
  if (raw === null) return null;
  const type = column.columnType;
  if (TEXT_TYPES.has(type) && column.characterSet === BINARY_CHARSET) return { bytes: raw.toString('hex') };
  const text = raw.toString('utf8');
  if (INTS.has(type)) {
    const n = BigInt(text);
    return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
  }
  if (FLOATS.has(type)) return { float: pythonFloatRepr(Number(text)) };
  if (DECIMALS.has(type)) return { decimal: pythonDecimalStr(text) };
  if (type === 10) return /^\d{4}-\d\d-\d\d$/.test(text) && !text.startsWith('0000') && !/-00/.test(text) ? { date: text } : text;
  if (type === 12 || type === 7) {
    const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?$/.exec(text);
    if (!m || text.startsWith('0000') || /-00[ T-]/.test(text)) return text;
    return { datetime: m[3] ? `${m[1]}T${m[2]}.${m[3].padEnd(6, '0')}` : `${m[1]}T${m[2]}` };
  }
  if (type === 11) return { timedelta: timeMicros(text) };
  return text;
}

/** A MySQL TIME ("-838:59:59.000000" to "838:59:59") as PyMySQL's timedelta, in total microseconds. */
function timeMicros(text: string): string {
  const m = /^(-?)(\d+):(\d\d):(\d\d)(?:\.(\d{1,6}))?$/.exec(text);
  if (!m) return text;
  const micros = (BigInt(m[2]!) * 3600n + BigInt(m[3]!) * 60n + BigInt(m[4]!)) * 1_000_000n + BigInt((m[5] ?? '').padEnd(6, '0') || '0');
  return (m[1] === '-' ? -micros : micros).toString();
}
