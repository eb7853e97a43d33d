import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './helpers/cli.js';

// The bundled audit's flags, in SALUS's format (task_id,predicted_label[,score]; 0 = flagged).
const FLAGS = join(ROOT, 'data', 'spider', 'audit', 'flags.csv');
const PRED = join(ROOT, 'data', 'spider', 'predictions');

describe('leaderboard on real Spider dev verdicts (score --items) with the bundled gold-error flags', () => {
  it('prints clean-subset accuracy equal to a hand computation over the items and flags', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-lb-spider-'));
    const items = join(dir, 'items.jsonl');
    const score = await runCli([
      'score',
      '--system', `supersql=${join(PRED, 'supersql', 'SuperSQL.sql')}`,
      '--system', `din-sql=${join(PRED, 'din-sql', 'DIN-SQL.csv')}`,
      '--system', `c3=${join(PRED, 'c3', 'predicted_sql.txt')}`,
      '--store', join(dir, 'store.db'),
      '--items', items,
      '--json',
    ]);
    expect(score.code, score.stderr).toBe(0);
    const scored = JSON.parse(score.stdout) as { systems: { name: string; correct: number }[] };

    const r = await runCli(['leaderboard', items, '--flags', FLAGS, '--json', '--iterations', '500']);
    expect(r.code, r.stderr).toBe(0);
    const lb = JSON.parse(r.stdout) as {
      tasks: number;
      flags: { flagged: number; clean: number };
      systems: { system: string; correct: number; clean: { tasks: number; correct: number; accuracy: { estimate: number } } }[];
    };
    expect(lb.tasks).toBe(1034);
    // By hand: label 0 = flagged; clean accuracy = correct among unflagged tasks / unflagged tasks.
    const flagged = new Set(
      readFileSync(FLAGS, 'utf8').trim().split(/\r?\n/).slice(1).map((l) => l.split(',')).filter(([, v]) => v!.trim() === '0').map(([id]) => id!.trim()),
    );
    const cleanN = 1034 - flagged.size;
    expect(lb.flags).toMatchObject({ flagged: flagged.size, clean: cleanN });
    const recs = readFileSync(items, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { system: string; taskId: string; correct: boolean });
    for (const s of scored.systems) {
      const mine = recs.filter((x) => x.system === s.name);
      const clean = mine.filter((x) => !flagged.has(x.taskId));
      const k = clean.filter((x) => x.correct).length;
      const row = lb.systems.find((x) => x.system === s.name)!;
      expect(row.correct).toBe(s.correct); // same verdicts as score's own count
      expect(clean).toHaveLength(cleanN);
      expect(row.clean.correct).toBe(k);
      expect(row.clean.accuracy.estimate).toBeCloseTo(k / cleanN, 12);
    }

    const text = await runCli(['leaderboard', items, '--flags', FLAGS, '--iterations', '200']);
    expect(text.stdout).toContain(`${flagged.size} of 1034 tasks are flagged as having wrong gold; clean accuracy uses the other ${cleanN}.`);
    // The column's short header when the table is narrowed to 100 columns.
    expect(text.stdout).toMatch(/Clean acc\./);
  });
});
