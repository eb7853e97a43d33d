import { describe, expect, it } from 'vitest';
import { jsonCandidates, parseProverAnswer, parseRefuterAnswer } from '../../src/judge/parse-output.js';

describe('judge output parsing', () => {
  it('reads bare, fenced and surrounded JSON; ignores unknown fields', () => {
    const bare = '{"expectedAnswer": "a count", "sqlDescription": "counts", "reason": "right", "verdict": true, "confidence": 0.9}';
    expect(parseProverAnswer(bare)).toEqual({ ok: true, value: { expectedAnswer: 'a count', sqlDescription: 'counts', reason: 'right', verdict: true } });
    const fenced = 'Let me think.\n```json\n{"reason": "misses the year filter", "verdict": false}\n```\nDone.';
    expect(parseProverAnswer(fenced)).toMatchObject({ ok: true, value: { verdict: false, reason: 'misses the year filter' } });
    const prose = 'My answer is {"reason": "a {brace} in a string", "verdict": "true"} as requested.';
    expect(parseProverAnswer(prose)).toMatchObject({ ok: true, value: { verdict: true, reason: 'a {brace} in a string' } });
  });

  it('takes the first object that validates when several are present', () => {
    const t = 'Example: {"a": 1}\nAnswer: {"reason": "ok", "overturn": false, "ambiguity": "question", "goldCorrect": false}';
    expect(parseRefuterAnswer(t)).toEqual({ ok: true, value: { reason: 'ok', overturn: false, ambiguity: 'question', goldCorrect: false } });
  });

  it("normalises ROSE's 'na' to none", () => {
    expect(parseRefuterAnswer('{"reason": "", "overturn": true, "ambiguity": "na", "goldCorrect": true}')).toMatchObject({
      ok: true,
      value: { ambiguity: 'none', overturn: true },
    });
  });

  it('explains what is wrong instead of guessing a verdict', () => {
    expect(parseProverAnswer('The query is correct.')).toEqual({ ok: false, problem: 'no JSON object found in the answer' });
    expect(parseProverAnswer('{"reason": "x", "verdict": "maybe"}')).toEqual({ ok: false, problem: '"verdict" must be true or false' });
    expect(parseRefuterAnswer('{"reason": "x", "overturn": false, "goldCorrect": true}')).toEqual({
      ok: false,
      problem: '"ambiguity" must be "question", "schema" or "none"',
    });
    expect(parseRefuterAnswer('{"overturn": false, "ambiguity": "none"}')).toMatchObject({ ok: false, problem: '"goldCorrect" must be true or false' });
    expect(parseProverAnswer('{"reason": "x", "verdict": true')).toMatchObject({ ok: false });
  });

  it('never takes arrays or scalars as the answer', () => {
    expect(jsonCandidates('[{"verdict": true}]')).toEqual([{ verdict: true }]);
    expect(jsonCandidates('true')).toEqual([]);
  });
});
