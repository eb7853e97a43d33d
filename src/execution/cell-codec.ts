import type { Cell } from './types.js';

/** A cell plain JSON would change: a big integer, a blob, ±Infinity (JSON null) or -0 (JSON 0). */
function needsTag(v: Cell): boolean {
  return typeof v === 'bigint' || v instanceof Uint8Array || (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0)));
}

/**
 * JSON encoding of result rows for the run store that keeps what JSON cannot:
 * exact big integers ({"$i": "..."}), blobs ({"$b": base64}) and ±Infinity, NaN, -0 ({"$f": "..."}).
 */
export function encodeRows(rows: Cell[][]): string {
  // A replacer is called for every value and costs several times a plain stringify; most
  // results have no cell that needs one, and a scan is cheap.
  if (!rows.some((r) => r.some(needsTag))) return JSON.stringify(rows);
  return JSON.stringify(
    rows.map((r) =>
      r.map((v) => {
        if (typeof v === 'bigint') return { $i: v.toString() };
        if (v instanceof Uint8Array) return { $b: Buffer.from(v).toString('base64') };
        if (typeof v === 'number' && needsTag(v)) return { $f: Object.is(v, -0) ? '-0' : String(v) };
        return v;
      }),
    ),
  );
}

export function decodeRows(text: string): Cell[][] {
  // A reviver costs several times a plain parse; only tagged cells need one.
  if (!text.includes('{"$')) return JSON.parse(text) as Cell[][];
  return JSON.parse(text, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      if (typeof o.$i === 'string') return BigInt(o.$i);
      if (typeof o.$b === 'string') return new Uint8Array(Buffer.from(o.$b, 'base64'));
      if (typeof o.$f === 'string') return Number(o.$f);
    }
    return v;
  }) as Cell[][];
}
