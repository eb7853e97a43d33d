import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/benchmark/load-questions.js';
import { loadPredictions } from '../../src/benchmark/load-predictions.js';
import { emInputs } from '../../src/execution/em-inputs.js';
import { runExactMatch } from '../../src/execution/em-run.js';
import { spiderHardness } from '../../src/sql/spider-hardness.js';
import { SHARED_SPIDER as SPIDER } from './helpers/shared-data.js';

interface EmLine {
  file: string;
  taskId: string;
  hardness: string;
  exact: number;
  partial: Record<string, Record<string, number>>;
  predParsed: boolean;
}

const DB_ROOT = join(SPIDER, 'database');

function fixture(): Map<string, EmLine[]> {
  const byFile = new Map<string, EmLine[]>();
  for (const l of readFileSync(join(SPIDER, 'official-verdicts', 'spider-exact-match.jsonl'), 'utf8').split('\n')) {
    if (!l.trim()) continue;
    const r = JSON.parse(l) as EmLine;
    const list = byFile.get(r.file) ?? [];
    list.push(r);
    byFile.set(r.file, list);
  }
  return byFile;
}

/** The README's printed totals: file → [easy, medium, hard, extra, all, not parsed]. */
function printedTotals(): Map<string, string[]> {
  const text = readFileSync(join(SPIDER, 'official-verdicts', 'README.md'), 'utf8');
  const out = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 9 || !/^(dev_gold|predictions\/)/.test(cells[1]!)) continue;
    out.set(cells[1]!, cells.slice(2, 8));
  }
  return out;
}

describe('Spider exact set match reproduces the official evaluation.py', () => {
  it('every EM, partial count, hardness and predParsed of the 23 files (23,782 items), and the printed totals', () => {
    const byFile = fixture();
    expect(byFile.size).toBe(23);
    const bench = loadBenchmark(join(SPIDER, 'dev.json'));
    const files = [...byFile.keys()];
    const systems = files.map((f) => loadPredictions(join(SPIDER, f), bench, f));
    // The schemas and foreign-key maps as a run reads them (--tables: Spider's tables.json).
    const results = runExactMatch(bench, systems, emInputs(join(SPIDER, 'dev.json'), DB_ROOT, join(SPIDER, 'tables.json'), true)!);
    const hardness = bench.tasks.map((t) => spiderHardness(t.goldSql));
    const bad: string[] = [];
    const totals = printedTotals();
    files.forEach((file, si) => {
      const sums: Record<string, [number, number]> = { easy: [0, 0], medium: [0, 0], hard: [0, 0], extra: [0, 0], all: [0, 0] };
      let notParsed = 0;
      for (const line of byFile.get(file)!) {
        const ti = Number(line.taskId);
        const got = results[si]![ti]!;
        const where = `${file} ${line.taskId}`;
        if (hardness[ti] !== line.hardness) bad.push(`${where}: hardness ${hardness[ti]} != ${line.hardness}`);
        if (got.em !== line.exact) bad.push(`${where}: exact ${got.em} != ${line.exact}`);
        if (got.predParsed !== line.predParsed) bad.push(`${where}: predParsed ${got.predParsed} != ${line.predParsed}`);
        for (const [k, v] of Object.entries(line.partial)) {
          const mine = got.partial[k as keyof typeof got.partial] as unknown as Record<string, number>;
          for (const f of ['acc', 'rec', 'f1', 'label_total', 'pred_total']) {
            if (mine?.[f] !== v[f]) bad.push(`${where}: ${k}.${f} ${mine?.[f]} != ${v[f]}`);
          }
        }
        for (const h of [line.hardness, 'all']) {
          sums[h]![0] += got.em;
          sums[h]![1]++;
        }
        if (!got.predParsed) notParsed++;
      }
      const printed = totals.get(file);
      const mine = [...['easy', 'medium', 'hard', 'extra', 'all'].map((h) => (sums[h]![0] / sums[h]![1]).toFixed(3)), String(notParsed)];
      if (printed?.join(' ') !== mine.join(' ')) bad.push(`${file}: totals ${mine.join(' ')} != printed ${printed?.join(' ')}`);
    });
    expect(bad.slice(0, 30)).toEqual([]);
    expect(bad.length).toBe(0);
  });
});
