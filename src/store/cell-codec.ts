import type { Cell } from '../execution/types.js';

/**
 * JSON encoding of result rows for the run store that keeps what JSON cannot:
 * exact big integers ({"$i": "..."}) and blobs ({"$b": base64}).
 */
export function encodeRows(rows: Cell[][]): string {
  return JSON.stringify(rows, (_k, v: unknown) => {
    if (typeof v === 'bigint') return { $i: v.toString() };
    if (v instanceof Uint8Array) return { $b: Buffer.from(v).toString('base64') };
    return v;
  });
}

export function decodeRows(text: string): Cell[][] {
  // A reviver costs several times a plain parse; only big integers and blobs need one.
  if (!text.includes('{"$')) return JSON.parse(text) as Cell[][];
  return JSON.parse(text, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      if (typeof o.$i === 'string') return BigInt(o.$i);
      if (typeof o.$b === 'string') return new Uint8Array(Buffer.from(o.$b, 'base64'));
    }
    return v;
  }) as Cell[][];
}
