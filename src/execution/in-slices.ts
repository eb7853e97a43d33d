import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * `items.map(f)` in slices, letting the event loop run between them: CPU work done while the
 * execution processes run (Spider hardness, exact match) must not hold back the messages that
 * hand them their next queries and bring their results.
 */
export async function mapInSlices<T, R>(items: readonly T[], f: (item: T, index: number) => R, slice = 64): Promise<R[]> {
  const out = new Array<R>(items.length);
  for (let start = 0; start < items.length; start += slice) {
    if (start > 0) await nextTurn();
    const end = Math.min(items.length, start + slice);
    for (let i = start; i < end; i++) out[i] = f(items[i]!, i);
  }
  return out;
}
