import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_LFS } from '../../src/audit/lfs/index.js';
import { runAuditPipeline } from '../../src/audit/pipeline.js';
import type { AuditInputs } from '../../src/audit/types.js';
import type { ExecResult } from '../../src/execution/types.js';
import { auc } from '../../src/stats/ranking.js';
import { createRng } from '../../src/stats/rng.js';
import { ROOT } from '../helpers/cli.js';

const ok = (v: number | string, rows = 1): ExecResult => ({ status: 'ok', columns: ['x'], rows: Array.from({ length: rows }, () => [v]), ms: 0 });

/** N tasks, the first `wrong` of which have wrong gold: most agents agree on another answer there. */
function synthetic(n: number, wrong: number, k: number, seed: number): AuditInputs {
  const rng = createRng(seed);
  const tasks = Array.from({ length: n }, (_, i) => ({
    id: String(i),
    dbId: 'db',
    question: `How many rows ${i}?`,
    evidence: '',
    goldSql: i % 3 === 0 ? `SELECT count(*) FROM t WHERE a = ${i}` : `SELECT name FROM t JOIN u ON t.id = u.id WHERE b > ${i}`,
  }));
  const gold = tasks.map((_, i) => ok(i));
  const agents = Array.from({ length: k }, (_, j) => ({
    name: `agent${j}`,
    sql: tasks.map((t) => t.goldSql),
    results: tasks.map((_, i) => {
      const r = rng();
      if (r < 0.03) return { status: 'error', columns: [], rows: [], error: 'syntax', ms: 0 } as ExecResult;
      const right = i < wrong ? 1000 + i : i;
      // Each agent is right 85% of the time; otherwise a private wrong answer.
      return rng() < 0.85 ? ok(right) : ok(`noise-${j}-${i}`);
    }),
  }));
  return { tasks, gold, agents };
}

describe('audit pipeline (label-free CPU pass)', () => {
  const inputs = synthetic(600, 150, 5, 42);

  it('flags the wrong gold from agent disagreement alone', () => {
    const r = runAuditPipeline(inputs, { seed: 1 });
    const flagged = new Set(r.flags.filter((f) => f.flagged).map((f) => Number(f.taskId)));
    const tp = [...flagged].filter((i) => i < 150).length;
    expect(tp / 150).toBeGreaterThan(0.9);
    expect(tp / flagged.size).toBeGreaterThan(0.9);
    expect(r.labelModel.errorPrior).toBeGreaterThan(0.2);
    expect(r.labelModel.errorPrior).toBeLessThan(0.3);
    // A flagged task with ≥ 3 agents agreeing on another answer gets a correction.
    const f0 = r.flags[0]!;
    expect(f0.flagged).toBe(true);
    expect(f0.fired.some((x) => x.vote === -1)).toBe(true);
    expect(f0.correction?.clusterSize).toBeGreaterThanOrEqual(3);
  });

  it('ranks every task for review: wrong gold first, rank and score agree', () => {
    const r = runAuditPipeline(inputs, { seed: 1 });
    const truth = r.flags.map((f) => Number(f.taskId) < 150);
    expect(auc(r.flags.map((f) => f.score), truth)).toBeGreaterThan(0.97);
    // A lower rank always means a higher score; tied tasks share both.
    const byRank = [...r.flags].sort((a, b) => a.rank - b.rank);
    byRank.slice(1).forEach((f, i) => expect(f.rank === byRank[i]!.rank ? f.score === byRank[i]!.score : f.score < byRank[i]!.score).toBe(true));
    expect(Math.min(...r.flags.map((f) => f.rank))).toBe(1);
    // Without --decision-plane the flags are the label model's.
    expect(r.plane).toBeNull();
    expect(r.flags.map((f) => f.flagged)).toEqual(Array.from(r.labelModel.posterior, (p) => p > 0.5));
  });

  it('is deterministic for a seed', () => {
    const a = runAuditPipeline(inputs, { seed: 3, decisionPlane: true });
    const b = runAuditPipeline(inputs, { seed: 3, decisionPlane: true });
    expect(a.flags.map((f) => [f.flagged, f.probability, f.score])).toEqual(b.flags.map((f) => [f.flagged, f.probability, f.score]));
    expect(a.plane).not.toBeNull();
    expect(a.plane?.config).toEqual(b.plane?.config);
    expect(a.plane?.selection).toEqual(b.plane?.selection);
  });

  it('chooses between the label model and the plane by agreement with held-out agents, not with its own pseudo-labels', () => {
    const r = runAuditPipeline(inputs, { seed: 1, decisionPlane: true });
    const p = r.plane!;
    // Two halves of the agents, disjoint, covering all of them.
    expect(p.halves.flat().sort()).toEqual([...r.agents].sort());
    expect(p.halves.every((h) => h.length >= 2)).toBe(true);
    expect(p.selection.map((s) => s.candidate)[0]).toBe('label model');
    expect(p.selection).toHaveLength(9);
    // The lead is the best plane candidate's MCC minus the label model's; a plane is used only when its interval is above 0.
    const bestPlane = Math.max(...p.selection.slice(1).map((s) => s.mcc));
    expect(p.lead.estimate).toBeCloseTo(bestPlane - p.selection[0]!.mcc, 9);
    expect(p.config === null).toBe(!(p.lead.low > 0));
    if (p.config === null) expect(r.flags.map((f) => f.flagged)).toEqual(Array.from(r.labelModel.posterior, (x) => x > 0.5));
    // With three agents the halves cannot both hold two: no selection, the label model decides.
    const three = synthetic(200, 50, 3, 7);
    const t = runAuditPipeline(three, { seed: 1, decisionPlane: true });
    expect(t.plane).toBeNull();
    expect(t.flags.map((f) => f.flagged)).toEqual(Array.from(t.labelModel.posterior, (x) => x > 0.5));
  });

  it('reports LF and agent statistics', () => {
    const r = runAuditPipeline(inputs);
    expect(r.lfStats).toHaveLength(ALL_LFS.length);
    for (const s of r.lfStats) {
      expect(s.coverage).toBeGreaterThanOrEqual(0);
      expect(s.conflict).toBeLessThanOrEqual(s.overlap + 1e-12);
      expect(s.overlap).toBeLessThanOrEqual(s.coverage + 1e-12);
    }
    expect(r.familyCorrelation.some((f) => f.family === 'consensus' && f.within > 0)).toBe(true);
    expect(r.agentStats.agents).toHaveLength(5);
    expect(r.agentStats.pairwise[0]![0]).toBe(0);
  });

  it("has the README's 65 base LFs (the paper has 43) in five families plus one meta LF, each with one line of documentation", () => {
    const base = ALL_LFS.filter((l) => l.family !== 'meta');
    expect(base.length).toBe(65);
    expect(ALL_LFS.filter((l) => l.family === 'meta')).toHaveLength(1);
    expect(new Set(base.map((l) => l.family))).toEqual(new Set(['execution', 'consensus', 'structural', 'pattern', 'intent']));
    expect(new Set(ALL_LFS.map((l) => l.name)).size).toBe(ALL_LFS.length);
    for (const lf of ALL_LFS) expect(lf.doc).toMatch(/^[^\n]{10,200}$/);
  });

  it('keeps labels out of everything but the evaluation module', () => {
    // Structural guarantee: the audit's inputs have no label field, and only evaluate.ts reads label files.
    const dir = join(ROOT, 'src', 'audit');
    const files = [...readdirSync(dir).map((f) => join(dir, f)), ...readdirSync(join(dir, 'lfs')).map((f) => join(dir, 'lfs', f))].filter((f) => f.endsWith('.ts'));
    const readers = files.filter((f) => /label-files|GoldErrorLabels|readErrorFlags/.test(readFileSync(f, 'utf8')));
    expect(readers.map((f) => f.slice(dir.length + 1))).toEqual(['evaluate.ts']);
    // Nothing in the audit imports evaluation code (a type import for output files carries no code).
    const importers = files.filter((f) => /import \{[^}]*\} from '\.\/evaluate\.js'/.test(readFileSync(f, 'utf8')));
    expect(importers).toEqual([]);
  });
});

describe('audit evaluation: recall per error type with Wilson intervals', () => {
  it('counts detected errors per labelled type and gives Wilson intervals written out by hand', async () => {
    const { evaluateAudit } = await import('../../src/audit/evaluate.js');
    const r = runAuditPipeline(synthetic(300, 60, 5, 7), { seed: 1 });
    // Labels on every 3rd task; wrong gold (the first 60) typed by parity.
    const isError = new Map<string, boolean>();
    const errorType = new Map<string, string>();
    for (let i = 0; i < 300; i += 3) {
      isError.set(String(i), i < 60);
      if (i < 60) errorType.set(String(i), i % 2 === 0 ? 'even' : 'odd');
    }
    const ev = evaluateAudit(r, { file: 'x', isError, errorType }, { bootstrap: { iterations: 50 } });
    const flagged = new Set(r.flags.filter((f) => f.flagged).map((f) => f.taskId));
    const z = 1.959963984540054;
    for (const type of ['even', 'odd']) {
      const ids = [...errorType].filter(([, t]) => t === type).map(([id]) => id);
      const k = ids.filter((id) => flagged.has(id)).length;
      const n = ids.length;
      const p = k / n;
      const c = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
      const h = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
      const e = ev.byErrorType[type]!;
      expect([e.n, e.detected]).toEqual([n, k]);
      expect(e.recallInterval!.low).toBeCloseTo(c - h, 10);
      expect(e.recallInterval!.high).toBeCloseTo(c + h, 10);
    }
  });
});
