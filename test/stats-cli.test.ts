import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';

async function json(args: string[]): Promise<Record<string, unknown>> {
  const r = await runCli([...args, '--json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

async function fails(args: string[], message: RegExp): Promise<void> {
  const r = await runCli(args);
  expect(r.code).not.toBe(0);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/internal error/);
}

describe('sqlboard stats gap', () => {
  it('BIRD dev: sigma_gap 3.10%, g* 5.09%', async () => {
    const g = await json(['stats', 'gap', '--n', '1534', '--flawed', '564']);
    expect(g.sigmaGap as number).toBeCloseTo(0.031, 4);
    expect(g.threshold as number).toBeCloseTo(0.0509, 4);
    expect(g.n).toBe(1534);
    expect(g.flawed).toBe(564);
    expect(g.z as number).toBeCloseTo(1.6449, 4);
    expect(g.method).toMatch(/2\*sqrt\(e\)\/N/);
  });

  it('--error-rate and --confidence', async () => {
    const g = await json(['stats', 'gap', '--n', '1534', '--error-rate', '0.37', '--confidence', '0.99']);
    expect(g.flawed as number).toBeCloseTo(567.58, 8);
    expect(g.threshold as number).toBeCloseTo((2.3263478740408408 * 2 * Math.sqrt(567.58)) / 1534, 12);
  });

  it('prints a table that names the method', async () => {
    const r = await runCli(['stats', 'gap', '--n', '1534', '--flawed', '564']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/SALUS gap bound/);
    expect(r.stdout).toMatch(/threshold g\*.*0\.0509.*5\.09%/);
    expect(r.stdout).toMatch(/sigma_gap.*0\.0310.*3\.10%/);
    // A bound, worded as one: never "cannot be told apart".
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('is within the noise bound: 564 wrong golds could, in the worst case, make it');
    expect(r.stdout).not.toMatch(/told apart/);
  });

  it('rejects bad flags with what to fix', async () => {
    await fails(['stats', 'gap', '--n', '1534', '--flawed', '564', '--error-rate', '0.37'], /exactly one of --flawed/);
    await fails(['stats', 'gap', '--n', '1534'], /exactly one of --flawed/);
    await fails(['stats', 'gap', '--flawed', '564'], /missing --n/);
    await fails(['stats', 'gap', '--n', '1534', '--flawed', '-3'], /--flawed must be a non-negative whole number/);
    await fails(['stats', 'gap', '--n', '100', '--flawed', '200'], /cannot exceed --n/);
    await fails(['stats', 'gap', '--n', '1534', '--error-rate', '37'], /fraction, not a percent: 0\.37/);
    await fails(['stats', 'gap', '--n', '1534', '--flawed', '5', '--confidence', '1'], /--confidence/);
  });
});

describe('sqlboard stats prevalence', () => {
  it('BIRD dev frontier: 39.3% [33.2%, 45.5%]', async () => {
    const p = await json(['stats', 'prevalence', '--n', '1534', '--flagged', '656', '--tp', '62', '--fp', '15', '--fn', '6', '--tn', '117']);
    expect(p.estimate as number).toBeCloseTo(0.393, 3);
    expect(p.ciLow as number).toBeCloseTo(0.332, 3);
    expect(p.ciHigh as number).toBeCloseTo(0.455, 3);
    expect(p.tpr as number).toBeCloseTo(62 / 68, 12);
    expect(p.fpr as number).toBeCloseTo(15 / 132, 12);
    expect(p.clipped).toBe(false);
    expect(p.method).toMatch(/Rogan–Gladen/);
  });

  it('TPR = FPR: null estimate and the reason, exit 0', async () => {
    const p = await json(['stats', 'prevalence', '--n', '100', '--flagged', '50', '--tp', '5', '--fp', '5', '--fn', '5', '--tn', '5']);
    expect(p.estimate).toBeNull();
    expect(p.reason).toMatch(/TPR = FPR/);
    const r = await runCli(['stats', 'prevalence', '--n', '100', '--flagged', '50', '--tp', '5', '--fp', '5', '--fn', '5', '--tn', '5']);
    expect(r.stdout).toMatch(/Undefined: TPR = FPR/);
  });

  it('rejects missing and impossible counts', async () => {
    await fails(['stats', 'prevalence', '--n', '1534', '--flagged', '656', '--tp', '62', '--fp', '15', '--fn', '6'], /missing --tn/);
    await fails(['stats', 'prevalence', '--n', '10', '--flagged', '11', '--tp', '1', '--fp', '1', '--fn', '1', '--tn', '1'], /--flagged \(11\) cannot exceed --n \(10\)/);
    await fails(['stats', 'prevalence', '--n', '10', '--flagged', '1', '--tp', '1.5', '--fp', '1', '--fn', '1', '--tn', '1'], /--tp must be a non-negative whole number/);
  });
});

describe('sqlboard stats detector', () => {
  it('frontier vs BIRD_CLEAN_xs: 154/15/12/117', async () => {
    const d = await json(['stats', 'detector', '--tp', '154', '--fp', '15', '--fn', '12', '--tn', '117']);
    expect(d.precision as number).toBeCloseTo(0.9112, 4);
    expect(d.recall as number).toBeCloseTo(0.9277, 4);
    expect(d.f1 as number).toBeCloseTo(0.9194, 4);
    expect(d.floorF1 as number).toBeCloseTo(0.7155, 4);
    expect(d.specificity as number).toBeCloseTo(117 / 132, 12);
    expect(d).toHaveProperty('mcc');
    expect(d).toHaveProperty('randomF1');
  });

  it('frontier vs GT_RS_200: 62/15/6/117', async () => {
    const d = await json(['stats', 'detector', '--tp', '62', '--fp', '15', '--fn', '6', '--tn', '117']);
    expect(d.f1 as number).toBeCloseTo(0.8552, 4);
    expect(d.mcc as number).toBeCloseTo(0.777, 3);
    expect(d.floorF1 as number).toBeCloseTo(0.5075, 4);
    expect(d.randomF1 as number).toBeCloseTo((2 * 0.34 * 0.385) / (0.34 + 0.385), 12);
    const iv = d.intervals as Record<string, { low: number; high: number }>;
    expect(iv.recall!.low).toBeCloseTo(0.8206, 4); // Wilson 62/68
  });

  it('an empty table gives nulls, not a crash', async () => {
    const d = await json(['stats', 'detector', '--tp', '0', '--fp', '0', '--fn', '0', '--tn', '0']);
    expect(d.n).toBe(0);
    expect(d.precision).toBeNull();
    expect(d.f1).toBeNull();
    expect(d.mcc).toBeNull();
  });

  it('rejects negative counts', async () => {
    await fails(['stats', 'detector', '--tp', '-1', '--fp', '0', '--fn', '0', '--tn', '0'], /--tp must be a non-negative whole number/);
  });
});

describe('sqlboard stats interval', () => {
  it('Wilson for 68/200 is [27.8%, 40.8%]; Clopper–Pearson alongside', async () => {
    const r = await json(['stats', 'interval', '--k', '68', '--n', '200']);
    const w = r.wilson as { low: number; high: number; method: string };
    const cp = r.clopperPearson as { low: number; high: number; method: string };
    expect(r.estimate).toBe(0.34);
    expect(w.low).toBeCloseTo(0.278, 3);
    expect(w.high).toBeCloseTo(0.408, 3);
    expect(cp.low).toBeCloseTo(0.2746683, 6);
    expect(cp.high).toBeCloseTo(0.4101559, 6);
    expect(cp.method).toMatch(/Clopper–Pearson/);
  });

  it('n = 0 gives a null estimate and [0, 1]; k > n is refused', async () => {
    const r = await json(['stats', 'interval', '--k', '0', '--n', '0']);
    expect(r.estimate).toBeNull();
    expect(r.wilson).toMatchObject({ low: 0, high: 1 });
    await fails(['stats', 'interval', '--k', '5', '--n', '3'], /--k \(5\) cannot exceed --n \(3\)/);
  });
});

describe('sqlboard stats agreement', () => {
  it('JSONL item records against a CSV, with a system picked from a multi-system file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-stats-'));
    const items = join(dir, 'items.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) {
      lines.push(JSON.stringify({ system: 'x', taskId: String(i), correct: i % 2 === 0 }));
      lines.push(JSON.stringify({ system: 'y', taskId: String(i), correct: i % 4 === 0 }));
    }
    lines.push(JSON.stringify({ system: 'x', taskId: '99', correct: null }));
    writeFileSync(items, lines.join('\n') + '\n');
    const csv = join(dir, 'labels.csv');
    // Agrees with x on 0..29, disagrees on 30..39; task 50 exists only here.
    const rows = ['task_id,label'];
    for (let i = 0; i < 40; i++) rows.push(`${i},${(i % 2 === 0) === i < 30 ? 1 : 0}`);
    rows.push('50,1');
    writeFileSync(csv, rows.join('\n') + '\n');

    await fails(['stats', 'agreement', items, csv], /holds 2 systems \(x, y\); pick one with --system-a/);
    const a = await json(['stats', 'agreement', items, csv, '--system-a', 'x', '--seed', '7', '--iterations', '500']);
    expect(a.n).toBe(40);
    expect(a.onlyInA).toBe(0);
    expect(a.onlyInB).toBe(1);
    expect(a.onlyInBExamples).toEqual(['50']);
    expect(a.skippedA).toBe(1);
    expect((a.accuracy as { estimate: number }).estimate).toBe(0.75);
    expect((a.kappa as { method: string }).method).toMatch(/500 resamples, seed 7/);
    await fails(['stats', 'agreement', items, csv, '--system-a', 'z'], /no records for system "z"/);
  });

  it('explains unusable files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-stats-'));
    // A label file in SALUS's ground-truth layout (query_id,db_id,difficulty,label,...).
    const truth = join(dir, 'truth.csv');
    writeFileSync(truth, 'query_id,db_id,difficulty,label,error_type,correction\n4,california_schools,moderate,0,Data Inconsistency,\n6,california_schools,simple,1,,\n');
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'id,value\n1,1\n');
    await fails(['stats', 'agreement', bad, truth], /needs a task id column/);
    const badLabel = join(dir, 'bad-label.csv');
    writeFileSync(badLabel, 'task_id,label\n1,maybe\n');
    await fails(['stats', 'agreement', badLabel, truth], /bad-label\.csv:2: label must be 0\/1/);
    const disjoint = join(dir, 'disjoint.csv');
    writeFileSync(disjoint, 'task_id,label\nq1,1\n');
    await fails(['stats', 'agreement', disjoint, truth], /share no task ids/);
    await fails(['stats', 'agreement', join(dir, 'missing.jsonl'), bad], /missing\.jsonl: no such file/);
  });
});

describe('sqlboard stats', () => {
  it('asks for a subcommand', async () => {
    await fails(['stats'], /Name a statistic/);
  });
});
