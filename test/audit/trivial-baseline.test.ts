import { describe, expect, it } from 'vitest';
import type { AuditReport } from '../../src/audit/pipeline.js';
import { helpsWhere, majorityFailCounts } from '../../src/report/audit.js';

describe("the audit report's trivial baseline and where the audit helps", () => {
  it('counts the tasks more than half of their valid agents fail, ignoring invalid agents', () => {
    const audit = [
      ['disagree', 'disagree', 'agree'], // 2 of 3 fail → counted
      ['disagree', 'agree', 'invalid'], // 1 of 2 valid: exactly half → not
      ['disagree', 'invalid', 'invalid'], // 1 of 1 → counted
      ['invalid', 'invalid', 'invalid'], // no valid agent → not
    ];
    const ex = [
      ['agree', 'agree', 'disagree'],
      ['disagree', 'disagree', 'invalid'],
      ['disagree', 'invalid', 'invalid'],
      ['agree', 'invalid', 'invalid'],
    ];
    const report = { verdicts: { audit, ex } } as unknown as AuditReport;
    expect(majorityFailCounts(report)).toEqual({ audit: 2, ex: 2 });
  });

  it('says where the audit is ahead, behind, or not told apart, from the intervals', () => {
    const iv = (estimate: number, low: number, high: number) => ({ estimate, low, high });
    const text = helpsWhere([
      ['majority vote', { f1: iv(0.086, 0.004, 0.175), mcc: iv(0.042, -0.063, 0.143) }],
      ['SALUS flags', { f1: iv(-0.245, -0.357, -0.144), mcc: iv(-0.319, -0.457, -0.19) }],
      ['absent', undefined],
    ]);
    expect(text).toContain('ahead of majority vote on F1 (+0.086 [+0.004, +0.175])');
    expect(text).toContain('behind SALUS flags on F1 (−0.245 [−0.357, −0.144]); SALUS flags on MCC (−0.319 [−0.457, −0.190])');
    expect(text).toContain('1 other comparisons have an interval spanning 0');
    expect(text).toContain('injected errors');
  });
});
