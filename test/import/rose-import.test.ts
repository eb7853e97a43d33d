import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { maxLineWidth, runCli, SHARED } from '../helpers/cli.js';
import { importRoseDir, subsetFromPath } from '../../src/benchmark/rose-import.js';
import { readItems } from '../../src/benchmark/items.js';
import { InputFileError } from '../../src/errors.js';

const ROSE = join(SHARED, 'rose', 'output');
const bench = (s: string) => join(ROSE, 'benchmarking', s, `o3-${s}-eval`);

function tmpRun(files: Record<string, unknown>, sub = 'run'): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'rose-import-')), sub);
  mkdirSync(dir, { recursive: true });
  for (const [name, body] of Object.entries(files)) {
    writeFileSync(join(dir, name), typeof body === 'string' ? body : JSON.stringify(body));
  }
  return dir;
}

describe('import rose (CLI, real ROSE runs)', () => {
  it('reproduces ROSE Table 3: GPT-5 on BIRD mini-dev 88.93%', async () => {
    const r = await runCli(['import', 'rose', bench('gpt-5'), '--system', 'gpt-5', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.system).toBe('gpt-5');
    expect(s.n).toBe(488);
    expect(s.accuracy.toFixed(4)).toBe('0.8893');
    expect(s.correct).toBe(434);
    expect(s.goldX).toBeGreaterThan(0);
    expect(s.ambQ).toBeGreaterThan(0);
    // The sibling EX-gpt-5-eval run gives EX for the same predictions.
    expect(s.ex.accuracy.toFixed(4)).toBe('0.5574');
  });

  it('rsl-gpt4o: 81.92%, and --out writes records that readItems accepts', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'rose-out-')), 'rsl.jsonl');
    const r = await runCli(['import', 'rose', bench('rsl-gpt4o'), '--system', 'rsl-gpt4o', '--json', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).accuracy.toFixed(4)).toBe('0.8192');
    const recs = readItems(out);
    expect(recs).toHaveLength(459);
    const first = recs[0]!;
    for (const k of ['system', 'taskId', 'ex', 'correct', 'route', 'goldX', 'ambQ']) expect(first).toHaveProperty(k);
    // One item carries neither stage (an early run's execution failure): a 0 without calls.
    const err = recs.find((x) => x.taskId === '944')!;
    expect(err.route).toBe('pred-error');
    expect(err.correct).toBe(false);
    expect(err.calls).toBe(0);
  });

  it('prints a table by default', async () => {
    const r = await runCli(['import', 'rose', bench('gpt-5'), '--system', 'gpt-5']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('88.93%');
    expect(maxLineWidth(r.stdout)).toBeLessThanOrEqual(100);
  });
});

describe('importRoseDir (core)', () => {
  it('takes the subset from a rose-vec-<name> path segment and keeps the last duplicated answer', () => {
    // o3 ROSE on ROSE-VEC-Spider: prover_output and refuter_output repeat 12 question ids each.
    const dir = join(ROSE, 'rose-vec', 'rose-vec-spider', 'o3', 'ROSE');
    const res = importRoseDir(dir, { system: 'o3-ROSE' });
    expect(res.summary.subset).toBe('rose-vec-spider');
    expect(res.records).toHaveLength(263);
    expect(res.records.every((r) => r.subset === 'rose-vec-spider')).toBe(true);
    expect(res.notes.some((n) => n.includes('duplicated'))).toBe(true);
    // Every recorded stage verdict agrees with the last answer in the stage files.
    for (const r of res.records) {
      if (r.route === 'prover-refuter' || r.route === 'prover-reject') expect(typeof r.proverReason).toBe('string');
      if (r.refuterOverturn !== undefined) expect(typeof r.refuterReason).toBe('string');
      expect(r.correct).toBe(r.route === 'match' || r.route === 'prover-refuter' ? !r.refuterOverturn : false);
    }
    expect(subsetFromPath('/x/rose-vec/rose-vec-bird/o3/ROSE')).toBe('rose-vec-bird');
    expect(subsetFromPath('/x/benchmarking/gpt-5/o3-gpt-5-eval')).toBeUndefined();
  });

  it('imports score-only runs (FLEX, llmsolver, EX) with their score and no diagnostics', () => {
    for (const m of ['FLEX', 'llmsolver']) {
      const res = importRoseDir(join(ROSE, 'rose-vec', 'rose-vec-bird', 'o3', m), { system: m });
      expect(res.summary.kind).toBe('score');
      expect(res.records).toHaveLength(322);
      expect(res.summary.goldX).toBeNull();
      expect(res.records.every((r) => r.route === 'score' && r.goldX === null)).toBe(true);
    }
    const flex = importRoseDir(join(ROSE, 'rose-vec', 'rose-vec-bird', 'o3', 'FLEX'), { system: 'f' });
    expect(flex.summary.correct).toBe(146);
    const ex = importRoseDir(join(ROSE, 'benchmarking', 'gpt-5', 'EX-gpt-5-eval'), { system: 'ex', subset: 'mini-dev' });
    expect(ex.summary.accuracy.toFixed(4)).toBe('0.5574');
    expect(ex.summary.subset).toBe('mini-dev');
  });

  it('reads AmbQ and GoldX from the Refuter, including combined ambiguity strings', () => {
    const res = importRoseDir(join(ROSE, 'rose-vec', 'rose-vec-bird', 'qwen3-235b', 'ROSE'), { system: 'q' });
    expect(res.summary.ambSchema).toBeGreaterThanOrEqual(14); // 13 "ambiguous schema" + 1 combined
    expect(res.summary.ambQ).toBeGreaterThanOrEqual(33);
  });

  it('keeps the last of duplicated eval entries', () => {
    const dir = tmpRun({
      'eval_results.json': [
        { question_id: 1, score: 0.0, prover_result: false, refuter_result: null },
        { question_id: 1, score: 1.0, prover_result: null, refuter_result: false },
      ],
      'refuter_output.json': [
        { question_id: 1, result: { judgement: 'old', verdict: true, ambiguity: 'na', gold_correct: true } },
        { question_id: 1, result: { judgement: 'new', verdict: false, ambiguity: 'ambiguous question', gold_correct: false } },
      ],
    });
    const res = importRoseDir(dir, { system: 's' });
    expect(res.records).toHaveLength(1);
    expect(res.records[0]).toMatchObject({ taskId: '1', correct: true, route: 'match', refuterReason: 'new', goldX: true, ambQ: true });
  });

  it('malformed input names the file and the problem', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /eval_results\.json: not found/],
      [{ 'eval_results.json': '{not json' }, /eval_results\.json(:\d+)?: malformed JSON/],
      [{ 'eval_results.json': { a: 1 } }, /eval_results\.json: expected a JSON array/],
      [{ 'eval_results.json': [{ score: 1 }] }, /eval_results\.json: entry 0 has no "question_id"/],
      [{ 'eval_results.json': [{ question_id: 3, score: 'yes' }] }, /entry 0 \(question_id 3\): "score" must be a number/],
      [{ 'eval_results.json': [{ question_id: 3, score: 1, prover_result: 'maybe', refuter_result: null }] }, /"prover_result" must be true, false or null/],
      [{ 'eval_results.json': [{ question_id: 3, score: 0, prover_result: false, refuter_result: true }] }, /question_id 3: .* not a route/],
      [
        { 'eval_results.json': [{ question_id: 3, score: 0, prover_result: false, refuter_result: null }], 'prover_output.json': [{ question_id: 3, result: 'x' }] },
        /prover_output\.json: entry 0 \(question_id 3\): "result" must be a JSON object/,
      ],
    ];
    for (const [files, re] of cases) {
      const dir = tmpRun(files);
      let err: unknown;
      try {
        importRoseDir(dir, { system: 's' });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputFileError);
      expect((err as Error).message).toMatch(re);
    }
  });

  it('the CLI reports malformed input without a stack trace and exits non-zero', async () => {
    const dir = tmpRun({ 'eval_results.json': '[1]' });
    const r = await runCli(['import', 'rose', dir, '--system', 's', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/eval_results\.json: entry 0 is not a JSON object/);
    expect(r.stderr).not.toMatch(/at .*\.ts/);
    expect(readFileSync(join(dir, 'eval_results.json'), 'utf8')).toBe('[1]');
  });
});

describe('import rose report wording', () => {
  it("labels the accuracy as the predictions' accuracy as judged, not the judge's", async () => {
    const { roseImportReport } = await import('../../src/report/import-report.js');
    const report = roseImportReport({ system: 's', source: 'x', subset: null, kind: 'vec', n: 23, correct: 14, accuracy: 14 / 23, ex: null, goldX: null, ambQ: null, calls: null, routes: {} } as unknown as Parameters<typeof roseImportReport>[0]);
    const row = report.sections[0]!.table!.rows.find((r) => String(r.what).startsWith('Accuracy'))!;
    expect(row.what).toBe("Accuracy of the predictions, as judged (ROSE's verdicts)");
    expect(row.value).toBe('60.87%');
  });
});
