import type { JudgeRecord } from './run.js';

export interface SystemJudgeSummary {
  name: string;
  /** Items (tasks) for this system. */
  n: number;
  /** Execution accuracy under the cascade's comparator. */
  exCorrect: number;
  ex: number;
  /** Items with a verdict (n minus unscored and not judged). */
  scored: number;
  correct: number;
  /** correct / scored: unscored items are shown apart, never counted right or wrong. */
  accuracy: number;
  goldX: number;
  ambQ: number;
  unscored: number;
  notJudged: number;
  routes: Record<string, number>;
  calls: number;
  callsPerItem: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Mean judge latency (ms) over items that needed a call. */
  meanLatencyMs: number;
}

export function summarizeJudge(items: JudgeRecord[], systems: string[]): SystemJudgeSummary[] {
  return systems.map((name) => {
    const mine = items.filter((r) => r.system === name);
    const s: SystemJudgeSummary = {
      name,
      n: mine.length,
      exCorrect: 0,
      ex: 0,
      scored: 0,
      correct: 0,
      accuracy: 0,
      goldX: 0,
      ambQ: 0,
      unscored: 0,
      notJudged: 0,
      routes: {},
      calls: 0,
      callsPerItem: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      meanLatencyMs: 0,
    };
    let withCalls = 0;
    let latency = 0;
    for (const r of mine) {
      if (r.ex) s.exCorrect += 1;
      if (r.route === 'not-judged') s.notJudged += 1;
      else if (r.correct === null) s.unscored += 1;
      else {
        s.scored += 1;
        if (r.correct) s.correct += 1;
      }
      if (r.goldX) s.goldX += 1;
      if (r.ambQ) s.ambQ += 1;
      s.routes[r.route] = (s.routes[r.route] ?? 0) + 1;
      s.calls += r.calls;
      s.inputTokens += r.inputTokens;
      s.outputTokens += r.outputTokens;
      s.costUsd += r.costUsd;
      if (r.calls > 0) {
        withCalls += 1;
        latency += r.latencyMs;
      }
    }
    s.ex = s.n ? s.exCorrect / s.n : 0;
    s.accuracy = s.scored ? s.correct / s.scored : 0;
    s.callsPerItem = s.n ? s.calls / s.n : 0;
    s.meanLatencyMs = withCalls ? latency / withCalls : 0;
    return s;
  });
}
