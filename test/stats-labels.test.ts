import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readErrorFlags } from '../src/benchmark/error-flags.js';
import { joinLabels, readLabelFile } from '../src/benchmark/label-files.js';
describe('joinLabels', () => {
  it('joinLabels keeps A order and lists one-sided ids', () => {
    const a = new Map([['3', true], ['1', false], ['2', true]]);
    const b = new Map([['2', false], ['9', true], ['3', true]]);
    expect(joinLabels(a, b)).toEqual({ taskIds: ['3', '2'], a: [true, true], b: [true, false], onlyInA: ['1'], onlyInB: ['9'] });
  });
});

describe('id,label CSV errors name the line of the bad row', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlboard-labels-'));
  // The first row's quoted note spans lines 2-4 and a blank line follows: the bad row is on line 6 (counting rows said 3).
  const body = (header: string, bad: string) => `${header},note\n1,1,"first line\nsecond line\nthird line"\n\n2,${bad},ok\n`;

  it('readLabelFile', () => {
    const f = join(dir, 'labels.csv');
    writeFileSync(f, body('task_id,label', 'maybe'));
    expect(() => readLabelFile(f)).toThrow(/labels\.csv:6: label must be 0\/1 or true\/false \(got "maybe"\)/);
    writeFileSync(f, body('task_id,label', '0'));
    expect(readLabelFile(f).labels).toEqual(new Map([['1', true], ['2', false]]));
  });

  it('readErrorFlags', () => {
    const f = join(dir, 'flags.csv');
    writeFileSync(f, body('task_id,predicted_label', '2'));
    expect(() => readErrorFlags(f)).toThrow(/flags\.csv:6: predicted_label must be 0 \(wrong gold\) or 1 \(fine\)/);
    writeFileSync(f, body('task_id,predicted_label', '0'));
    expect(readErrorFlags(f)).toEqual(new Map([['1', false], ['2', true]]));
  });
});
