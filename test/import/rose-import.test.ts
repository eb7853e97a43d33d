import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { maxLineWidth, runCli } from '../helpers/cli.js';
import { importRoseDir } from '../../src/benchmark/rose-import.js';
import { readItems } from '../../src/benchmark/items.js';
import { InputFileError } from '../../src/errors.js';

function tmpRun(files: Record<string, unknown>, sub = 'run'): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'rose-import-')), sub);
  mkdirSync(dir, { recursive: true });
  for (const [name, body] of Object.entries(files)) {
    writeFileSync(join(dir, name), typeof body === 'string' ? body : JSON.stringify(body));
  }
  return dir;
}

describe('import rose (CLI, a hand-made run; ROSE\'s recorded runs: test/fidelity/rose-import-runs)', () => {
  it('prints the accuracy, and --out writes records that readItems accepts', async () => {
    const dir = tmpRun({
      'eval_results.json': [
        { question_id: 1, score: 1.0, prover_result: null, refuter_result: false },
        { question_id: 2, score: 0.0, prover_result: false, refuter_result: null },
        { question_id: 3, score: 1.0, prover_result: true, refuter_result: null },
      ],
    });
    const out = join(mkdtempSync(join(tmpdir(), 'rose-out-')), 'r.jsonl');
    const r = await runCli(['import', 'rose', dir, '--system', 's', '--json', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { system: string; n: number; correct: number };
    expect([s.system, s.n, s.correct]).toEqual(['s', 3, 2]);
    expect(readItems(out).map((x) => [x.taskId, x.correct])).toEqual([['1', true], ['2', false], ['3', true]]);
    const table = await runCli(['import', 'rose', dir, '--system', 's']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain('66.67%');
    expect(maxLineWidth(table.stdout)).toBeLessThanOrEqual(100);
  });
});

describe('importRoseDir (core)', () => {
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
