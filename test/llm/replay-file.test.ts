import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReplayProvider, REPLAY_LINE_EXAMPLE } from '../../src/llm/providers/replay.js';
import { judgeName } from '../../src/llm/model-name.js';
import { ROOT, runCli } from '../helpers/cli.js';

/*
 * Offline judging (issue 34): a recording that cannot answer anything is an error naming the file
 * (and the line) with the shape a line must have, and a replayed judge is named after the model the
 * recording was made with, never after the day it is replayed.
 */
const dir = mkdtempSync(join(tmpdir(), 'sqlboard-replay-'));
const file = (name: string, text: string): string => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe('replay file errors', () => {
  it('an empty recording (or blank lines only) is an error naming the file and the expected shape', () => {
    for (const text of ['', '\n\n  \n']) {
      const f = file('empty.jsonl', text);
      expect(() => createReplayProvider({ file: f })).toThrow(`${f}: the recording is empty; expected one JSON object per line`);
    }
  });

  it('a malformed line names the file, its line and shows a well-formed line', () => {
    const cases: [string, string][] = [
      ['{"contains": ["a"], "text": "ok"}\nnot json\n', ':2: not a JSON object'],
      ['{"contains": ["a"], "text": "ok"}\n\n[1, 2]\n', ':3: not a JSON object'],
      ['{"contains": ["a"], "text": 7}\n', ':1: no string "text"'],
      ['{"text": "no selector"}\n', ':1: neither "requestHash" nor "contains"'],
      ['{"contains": "a", "text": "x"}\n', ':1: "contains" is not an array of strings'],
      ['{"contains": [1], "text": "x"}\n', ':1: "contains" is not an array of strings'],
      ['{"requestHash": 5, "text": "x"}\n', ':1: "requestHash" is not a string'],
      ['{"contains": ["a"], "text": "x", "inputTokens": -1}\n', ':1: "inputTokens" must be a whole number of tokens, 0 or more (got -1)'],
      ['{"contains": ["a"], "text": "x", "model": 4}\n', ':1: "model" is not a string'],
    ];
    for (const [text, where] of cases) {
      const f = file('bad.jsonl', text);
      let message = '';
      try {
        createReplayProvider({ file: f });
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toContain(`${f}${where}`);
      expect(message).toContain(REPLAY_LINE_EXAMPLE);
    }
  });

  it('a recording that is not UTF-8 keeps the reader\'s own error (byte offset, what to do), not "not a JSON object"', () => {
    const f = join(dir, 'latin1.jsonl');
    writeFileSync(f, Buffer.concat([Buffer.from('{"contains": ["a"], "text": "caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    expect(() => createReplayProvider({ file: f })).toThrow(/is not valid UTF-8 \(first invalid byte at offset 32, 0xe9\): save it as UTF-8/);
  });

  it('the example the errors show is itself a line the provider accepts', async () => {
    const p = createReplayProvider({ file: file('example.jsonl', REPLAY_LINE_EXAMPLE + '\n') });
    const r = await p.complete({
      model: 'm',
      messages: [{ role: 'user', content: 'You are the Prover. … singers from France …' }],
      sampling: { temperature: 0, maxOutputTokens: 10 },
      timeoutMs: 1000,
    });
    expect(r.text).toBe("the model's answer, verbatim");
  });
});

describe('a replayed judge is named after its recording', () => {
  it('replay names an undated model <model>-replay, never the run date', () => {
    expect(judgeName('gpt-4o', { undated: 'replay', runDate: new Date('2026-12-04T12:00:00Z') })).toBe('gpt-4o-replay');
    expect(judgeName('gpt-4o', { undated: 'replay', resolvedModel: 'gpt-4o-2024-08-06' })).toBe('gpt-4o-2024-08-06');
  });

  // Spider dev tasks 0–2 with their gold as the prediction: every item takes the match route.
  const dbRoot = join(ROOT, 'data', 'spider', 'database');
  const upheld = JSON.stringify({ reason: 'same rows', overturn: false, ambiguity: 'none', goldCorrect: true });
  const preds = file('preds.txt', 'SELECT count(*) FROM singer\nSELECT count(*) FROM singer\nSELECT name ,  country ,  age FROM singer ORDER BY age DESC\n');
  const q3 = file('q3.json', JSON.stringify(
    [
      { db_id: 'concert_singer', query: 'SELECT count(*) FROM singer', question: 'How many singers do we have?' },
      { db_id: 'concert_singer', query: 'SELECT count(*) FROM singer', question: 'What is the total number of singers?' },
      { db_id: 'concert_singer', query: 'SELECT name ,  country ,  age FROM singer ORDER BY age DESC', question: 'Show name, country, age for all singers ordered by age from the oldest to the youngest.' },
    ],
  ));
  const judge = (replay: string, store: string) =>
    runCli(['judge', '--questions', q3, '--db-root', dbRoot, '--system', `gold=${preds}`, '--provider', 'replay', '--model', 'gpt-4o', '--replay', replay, '--store', join(dir, store), '--json']);

  it('an empty recording stops judge with exit 2 before any item is judged', async () => {
    const r = await judge(file('none.jsonl', ''), 'none.db');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('none.jsonl: the recording is empty');
    expect(r.stderr).not.toMatch(/gpt-4o-\d{4}-\d{2}-\d{2}/);
  });

  it('a recording without a model names the judge gpt-4o-replay; one made with gpt-4o-2024-08-06 names it so', async () => {
    const plain = await judge(file('plain.jsonl', JSON.stringify({ contains: ['returned exactly the same result'], text: upheld }) + '\n'), 'plain.db');
    expect(plain.stderr).toBe('');
    expect(plain.code).toBe(0);
    const a = JSON.parse(plain.stdout) as { judge: string; systems: { scored: number; correct: number }[] };
    expect(a.judge).toBe('gpt-4o-replay');
    expect(a.systems[0]).toMatchObject({ scored: 3, correct: 3 });
    const dated = await judge(file('dated.jsonl', JSON.stringify({ contains: ['returned exactly the same result'], text: upheld, model: 'gpt-4o-2024-08-06' }) + '\n'), 'dated.db');
    expect(dated.code).toBe(0);
    expect((JSON.parse(dated.stdout) as { judge: string }).judge).toBe('gpt-4o-2024-08-06');
  });
});
