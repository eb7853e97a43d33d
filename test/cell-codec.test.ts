import { describe, expect, it } from 'vitest';
import { decodeRows, encodeRows } from '../src/execution/cell-codec.js';

describe('run store row encoding', () => {
  it('round-trips big integers, blobs, NULL, floats and strings that look like the markers', () => {
    const rows = [
      [9007199254740993n, new Uint8Array([0, 255, 7]), null, 1.5, 'x'],
      [-1n, new Uint8Array([]), 0, -0.25, '{"$i":"1"}'],
    ];
    expect(decodeRows(encodeRows(rows))).toEqual(rows);
    expect(decodeRows(encodeRows([[1, 'a']]))).toEqual([[1, 'a']]);
  });

  it('keeps ±Infinity and -0, which plain JSON turns into null and 0', () => {
    const rows = [[Infinity, -Infinity, -0, 0, null]];
    const back = decodeRows(encodeRows(rows));
    expect(back).toEqual(rows);
    expect(Object.is(back[0]![2], -0)).toBe(true);
  });
});
