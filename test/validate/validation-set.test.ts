import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadValidationSet, loadValidationSets } from '../../src/benchmark/validation-set.js';
import { InputFileError } from '../../src/errors.js';

function tmpFile(name: string, text: string): string {
  const f = join(mkdtempSync(join(tmpdir(), 'vset-')), name);
  writeFileSync(f, text);
  return f;
}

function errorOf(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('sqlboard JSONL validation sets', () => {
  it('reads ids, labels, subset (file name or per line) and tags', () => {
    const f = tmpFile(
      'my-set.jsonl',
      [
        '{"id": 1, "label": true, "tags": []}',
        '',
        '{"id": "2", "label": false, "tags": ["gold_false", "ambiguous_question"], "question": "q"}',
        '{"id": "2", "subset": "other", "label": true}',
      ].join('\n'),
    );
    const s = loadValidationSet(f);
    expect(s.format).toBe('jsonl');
    expect(s.items.map((i) => [i.subset, i.taskId, i.label])).toEqual([
      ['my-set', '1', true],
      ['my-set', '2', false],
      ['other', '2', true],
    ]);
    expect(s.items[0]!.tags).toEqual({ goldFalse: false, ambQuestion: false, ambSchema: false, evidenceFalse: false });
    expect(s.items[1]!.tags).toMatchObject({ goldFalse: true, ambQuestion: true });
    expect(s.items[2]!.tags).toBeUndefined();
  });

  it('rejects bad lines with file and line', () => {
    const cases: [string, RegExp][] = [
      ['{"id": 1}', /x\.jsonl:1: "label" must be true or false/],
      ['{"label": true}', /x\.jsonl:1: missing "id"/],
      ['{"id": 1, "label": true}\n{"id": 1, "label": false}', /item id 1 appears twice in subset x/],
      ['{"id": 1, "label": true, "tags": ["gold_wrong"]}', /x\.jsonl:1: unknown tag "gold_wrong"/],
      ['nope', /x\.jsonl:1: not a JSON object/],
      ['', /holds no items/],
    ];
    for (const [text, re] of cases) {
      const e = errorOf(() => loadValidationSet(tmpFile('x.jsonl', text)));
      expect(e).toBeInstanceOf(InputFileError);
      expect(e.message).toMatch(re);
    }
    const bad = errorOf(() => loadValidationSet(tmpFile('y.json', '[{"question_id": 5, "label": "yes"}]')));
    expect(bad.message).toMatch(/y\.json: item 0 \(question_id 5\): "label" must be true or false/);
  });

  it('refuses two files whose subsets overlap', () => {
    const a = tmpFile('same.jsonl', '{"id": 1, "label": true}');
    const b = tmpFile('same.jsonl', '{"id": 1, "label": false}');
    expect(errorOf(() => loadValidationSets([a, b])).message).toMatch(/also in/);
  });
});
