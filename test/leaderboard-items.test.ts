import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { SPIDER, runCli } from './helpers/cli.js';
import { wilson } from '../src/stats/intervals.js';
import { itemsLeaderboard } from '../src/stats/leaderboard.js';
import type { ItemRecord } from '../src/benchmark/types.js';
import { jsonTextWithoutMeta } from './helpers/meta.js';

// The bundled audit's Spider dev flags, in SALUS's format (task_id,predicted_label,score; 0 = flagged).
const FLAGS = join(SPIDER, 'audit', 'flags.csv');
const TASKS = 1034; // Spider dev, the tasks the flags cover

/** The flags read independently of the code under test: task_id → flagged (label 0). */
function handFlags(): Map<string, boolean> {
  const lines = readFileSync(FLAGS, 'utf8').trim().split(/\r?\n/).slice(1);
  return new Map(lines.map((l) => l.split(',')).map(([id, label]) => [id!.trim(), label!.trim() === '0']));
}

/** Deterministic, different-looking verdict patterns per system. */
const patterns: Record<string, (t: number) => boolean> = {
  strong: (t) => t % 10 < 8,
  middle: (t) => (t * 7) % 10 < 7,
  weak: (t) => (t * 3 + 1) % 10 < 5,
};

function records(system: string, f: (t: number) => boolean, skip: (t: number) => boolean = () => false): ItemRecord[] {
  const out: ItemRecord[] = [];
  for (let t = 0; t < TASKS; t++) if (!skip(t)) out.push({ system, taskId: String(t), correct: f(t) });
  return out;
}

function writeJsonl(dir: string, name: string, recs: ItemRecord[]): string {
  const file = join(dir, name);
  writeFileSync(file, recs.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}

interface ItemsJson {
  tasks: number;
  top: string;
  notSignificantlyBelowTop: string[];
  threshold: number | null;
  flags: { flagged: number; clean: number; unlisted: number; unused: number } | null;
  systems: {
    rank: number;
    system: string;
    correct: number;
    accuracy: { estimate: number; low: number; high: number };
    absent: number;
    rankRange: { low: number; high: number };
    clean?: { tasks: number; correct: number; accuracy: { estimate: number; low: number; high: number }; rank: number };
    vsTop?: { pValue: number; pHolm: number; notSignificantlyBelow: boolean };
  }[];
  pairs: {
    a: string;
    b: string;
    difference: { estimate: number; low: number; high: number; pGreater: number };
    mcnemar: { b: number; c: number; pValue: number };
    significant: boolean;
    clean?: { difference: number; mcnemar: { b: number; c: number } };
  }[];
}

describe('leaderboard from per-item verdict files with Spider gold-error flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlboard-lb-items-'));
  // Several systems per file, and a second file; "weak" lacks tasks 0–9.
  const fileA = writeJsonl(dir, 'a.jsonl', [...records('strong', patterns.strong!), ...records('middle', patterns.middle!)]);
  const fileB = writeJsonl(dir, 'b.jsonl', records('weak', patterns.weak!, (t) => t < 10));

  it('clean-subset accuracy equals a hand computation over the unflagged tasks', async () => {
    const r = await runCli(['leaderboard', fileA, '--items', fileB, '--flags', FLAGS, '--json', '--seed', '7', '--iterations', '500']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as ItemsJson;
    const flags = handFlags();
    expect(j.tasks).toBe(TASKS);
    const flaggedByHand = [...flags.values()].filter(Boolean).length;
    expect(flaggedByHand).toBeGreaterThan(0);
    expect(j.flags).toEqual({ flagged: flaggedByHand, clean: TASKS - flaggedByHand, unlisted: 0, unused: 0 });
    for (const [system, f] of Object.entries(patterns)) {
      const s = j.systems.find((x) => x.system === system)!;
      let k = 0;
      let n = 0;
      for (let t = 0; t < TASKS; t++) {
        if (flags.get(String(t))) continue;
        n++;
        if (f(t) && !(system === 'weak' && t < 10)) k++;
      }
      expect(s.clean!.tasks).toBe(n);
      expect(s.clean!.correct).toBe(k);
      expect(s.clean!.accuracy.estimate).toBe(k / n);
      const w = wilson(k, n);
      expect(s.clean!.accuracy.low).toBeCloseTo(w.low, 12);
      expect(s.clean!.accuracy.high).toBeCloseTo(w.high, 12);
    }
    // g* from the flags: e flagged of N = 1034 → 1.645 · 2√e/1034
    expect(j.threshold).toBeCloseTo(1.6448536 * ((2 * Math.sqrt(flaggedByHand)) / 1034), 6);
  });

  it('ranks, counts a missing verdict as wrong, and pairs carry McNemar counts computed by hand', async () => {
    const r = await runCli(['leaderboard', fileA, fileB, '--flags', FLAGS, '--json', '--iterations', '300']);
    const j = JSON.parse(r.stdout) as ItemsJson;
    expect(j.systems.map((s) => s.system)).toEqual(['strong', 'middle', 'weak']);
    expect(j.top).toBe('strong');
    const weak = j.systems[2]!;
    expect(weak.absent).toBe(10);
    let weakK = 0;
    for (let t = 10; t < TASKS; t++) if (patterns.weak!(t)) weakK++;
    expect(weak.correct).toBe(weakK);
    expect(weak.accuracy.estimate).toBe(weakK / TASKS);
    const sm = j.pairs.find((p) => p.a === 'strong' && p.b === 'middle')!;
    let b = 0;
    let c = 0;
    for (let t = 0; t < TASKS; t++) {
      if (patterns.strong!(t) && !patterns.middle!(t)) b++;
      if (!patterns.strong!(t) && patterns.middle!(t)) c++;
    }
    expect(sm.mcnemar.b).toBe(b);
    expect(sm.mcnemar.c).toBe(c);
    expect(sm.difference.estimate).toBeCloseTo((b - c) / TASKS, 12);
    expect(sm.difference.low).toBeLessThanOrEqual(sm.difference.estimate);
    expect(sm.difference.high).toBeGreaterThanOrEqual(sm.difference.estimate);
    expect(j.pairs).toHaveLength(3);
    // rank ranges contain the observed rank
    for (const s of j.systems) {
      expect(s.rankRange.low).toBeLessThanOrEqual(s.rank);
      expect(s.rankRange.high).toBeGreaterThanOrEqual(s.rank);
    }
    const text = await runCli(['leaderboard', fileA, fileB, '--iterations', '100']);
    expect(text.stdout).toContain('weak has no verdict for 10 of the 1034 tasks; they count as wrong.');
  });

  it('is deterministic for a seed', async () => {
    const args = ['leaderboard', fileA, fileB, '--json', '--iterations', '200', '--seed', '11'];
    const [x, y] = await Promise.all([runCli(args), runCli(args)]);
    expect(jsonTextWithoutMeta(x.stdout)).toBe(jsonTextWithoutMeta(y.stdout));
  });

  it('--csv prints the standings with interval columns; --md prints Markdown', async () => {
    const r = await runCli(['leaderboard', fileA, '--flags', FLAGS, '--iterations', '100', '--csv']);
    expect(r.code, r.stderr).toBe(0);
    const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((x) => x.System)).toEqual(['strong', 'middle']);
    expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining(['Accuracy', 'Accuracy low', 'Accuracy high', 'Clean accuracy', 'Clean accuracy low']));
    expect(Number(rows[0]!.Accuracy)).toBeCloseTo(0.8, 2);
    const md = await runCli(['leaderboard', fileA, '--iterations', '100', '--md']);
    expect(md.stdout).toMatch(/^# Leaderboard\n/);
    expect(md.stdout).toContain('## Pairwise comparisons');
  });
});

describe('leaderboard edge cases (core)', () => {
  it('one system: rank 1, no pairs, nobody to be below it', () => {
    const lb = itemsLeaderboard({ sources: [{ file: 'x', records: records('solo', patterns.strong!) }], iterations: 50 });
    expect(lb.systems).toHaveLength(1);
    expect(lb.systems[0]).toMatchObject({ rank: 1, system: 'solo', rankRange: { low: 1, high: 1 } });
    expect(lb.pairs).toEqual([]);
    expect(lb.notSignificantlyBelowTop).toEqual([]);
    expect(lb.gap).toBeUndefined();
  });

  it('ties: identical systems share a rank, McNemar p = 1, and the twin is not significantly below #1', () => {
    const lb = itemsLeaderboard({
      sources: [{ file: 'x', records: [...records('twin-b', patterns.middle!), ...records('twin-a', patterns.middle!), ...records('low', patterns.weak!)] }],
      iterations: 100,
    });
    expect(lb.systems.map((s) => [s.system, s.rank])).toEqual([
      ['twin-a', 1],
      ['twin-b', 1],
      ['low', 3],
    ]);
    const twins = lb.pairs[0]!;
    expect(twins.mcnemar).toMatchObject({ b: 0, c: 0, pValue: 1 });
    expect(twins.difference).toMatchObject({ estimate: 0, low: 0, high: 0 });
    expect(lb.notSignificantlyBelowTop).toEqual(['twin-b']);
    expect(lb.systems[0]!.rankRange).toEqual({ low: 1, high: 1 });
  });

  it('an explicit --error-rate gives g* without flags', () => {
    const lb = itemsLeaderboard({ sources: [{ file: 'x', records: [...records('a', patterns.strong!), ...records('b', patterns.middle!)] }], errorRate: 0.1, iterations: 50 });
    expect(lb.gap?.threshold).toBeCloseTo(1.6448536 * ((2 * Math.sqrt(103.4)) / 1034), 6);
    expect(lb.withinThresholdOfTop).toEqual([]); // 10 points apart
  });
});

describe('leaderboard input errors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlboard-lb-err-'));

  it('refuses the same system twice for a task, naming both files', async () => {
    const f = writeJsonl(dir, 'dup.jsonl', records('s', patterns.strong!).slice(0, 5));
    const r = await runCli(['leaderboard', f, f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/system "s" has two verdicts for task 0 \(.*dup\.jsonl and .*dup\.jsonl\)/);
  });

  it('rejects a flags file with a bad label, naming the line', async () => {
    const f = writeJsonl(dir, 'ok.jsonl', records('s', patterns.strong!).slice(0, 5));
    const flags = join(dir, 'flags.csv');
    writeFileSync(flags, 'task_id,predicted_label\n0,1\n1,maybe\n');
    const r = await runCli(['leaderboard', f, '--flags', flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/flags\.csv:3: predicted_label must be 0 \(wrong gold\) or 1/);
  });

  it('asks for input when given none', async () => {
    const r = await runCli(['leaderboard']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/give per-item verdict files/);
  });
});
