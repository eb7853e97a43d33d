import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './helpers/cli.js';

/** Exact two-sided McNemar p, written out: 2·P(X ≤ min(b, c)), X ~ Bin(b + c, ½), capped at 1. */
function mcnemar(b: number, c: number): number {
  const m = b + c;
  if (m === 0) return 1;
  let logc = 0;
  let s = 0;
  for (let i = 0; i <= Math.min(b, c); i++) {
    s += Math.exp(logc - m * Math.LN2);
    logc += Math.log(m - i) - Math.log(i + 1);
  }
  return Math.min(1, 2 * s);
}

/** Holm, written out: the j-th smallest times (K − j), running maximum, capped at 1. */
function holm(p: number[]): number[] {
  const order = p.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(p.length);
  let run = 0;
  order.forEach(([x, i], j) => {
    run = Math.max(run, Math.min(1, (p.length - j) * x));
    out[i] = run;
  });
  return out;
}

describe('the rank-1 set on the 23 bundled Spider systems, as docs/statistics.md quotes it', () => {
  it('counts the systems not significantly below #1 (Holm over the comparisons with #1) and over all pairs, by hand', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-rank1-'));
    const items = join(dir, 'items.jsonl');
    const s = await runCli(['score', '--items', items, '--store', join(dir, 'store.db'), '--json']);
    expect(s.code, s.stderr).toBe(0);
    const recs = readFileSync(items, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { system: string; taskId: string; correct: boolean });
    const by = new Map<string, Map<string, boolean>>();
    for (const r of recs) (by.get(r.system) ?? by.set(r.system, new Map()).get(r.system)!).set(r.taskId, r.correct);
    const systems = [...by.keys()];
    const total = (x: string): number => [...by.get(x)!.values()].filter(Boolean).length;
    systems.sort((a, b) => total(b) - total(a) || (a < b ? -1 : 1));
    const top = systems[0]!;
    const p = (x: string, y: string): number => {
      let b = 0;
      let c = 0;
      for (const [t, v] of by.get(x)!) {
        const w = by.get(y)!.get(t) ?? false;
        if (v && !w) b++;
        if (w && !v) c++;
      }
      return mcnemar(b, c);
    };
    const vsTop = holm(systems.slice(1).map((x) => p(top, x)));
    const notBelow = vsTop.filter((q) => q >= 0.05).length;
    const all: number[] = [];
    const topIdx: number[] = [];
    for (let i = 0; i < systems.length; i++) for (let j = i + 1; j < systems.length; j++) {
      if (i === 0) topIdx.push(all.length);
      all.push(p(systems[i]!, systems[j]!));
    }
    const allHolm = holm(all);
    const notBelowAllPairs = topIdx.filter((k) => allHolm[k]! >= 0.05).length;

    const lb = await runCli(['leaderboard', items, '--json', '--iterations', '20']);
    expect(lb.code, lb.stderr).toBe(0);
    const j = JSON.parse(lb.stdout) as { top: string; notSignificantlyBelowTop: string[] };
    expect(j.top).toBe(top);
    expect(j.notSignificantlyBelowTop).toHaveLength(notBelow);
    const docs = readFileSync(join(ROOT, 'docs', 'statistics.md'), 'utf8').replace(/\s+/g, ' ');
    expect(docs).toContain(`${notBelow} of ${systems.length - 1} systems are not significantly below ${top} (Holm over all ${all.length} pairs would have said ${notBelowAllPairs})`);
    const page = readFileSync(join(ROOT, 'docs', 'commands', 'leaderboard.md'), 'utf8').replace(/\s+/g, ' ');
    expect(page).toContain(`On the ${systems.length} bundled Spider systems, ${notBelow} of ${systems.length - 1} are not significantly below #1.`);
  });
});
