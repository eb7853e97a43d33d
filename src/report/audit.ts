import type { Baselines, Evaluation, RankQuality, Scored } from '../audit/evaluate.js';
import type { AuditReport } from '../audit/pipeline.js';
import type { LlmAgentSummary } from '../audit/agents.js';
import type { Report, Section } from './model.js';
import type { DetectorDifference } from '../stats/detector-difference.js';
import type { RankingDifference } from '../stats/ranking.js';
import { disagreementShare } from '../audit/review-order.js';

/**
 * The trivial baseline beside the audit's flag count: tasks that more than half of their valid agents
 * fail (disagree with the gold), under the audit's comparison and under plain EX. It needs no audit.
 */
export function majorityFailCounts(report: AuditReport): { audit: number; ex: number } {
  const count = (vs: AuditReport['verdicts']['audit']): number => vs.filter((v) => disagreementShare(v) > 0.5).length;
  return { audit: count(report.verdicts.audit), ex: count(report.verdicts.ex) };
}

export interface AuditContext {
  questions: string;
  labelsFile?: string;
  seed: number;
  /** Wall time of the execution phase, ms. */
  executionMs?: number;
  /** Agents whose SQL was generated live by an LLM in this run (--llm-agent). */
  llmAgents?: LlmAgentSummary[];
  /** Why generation stopped early (budget), if it did. */
  llmStopped?: string;
}

const baselinesJson = (b: Baselines): Record<string, unknown> => ({
  majority: metricsOf(b.majority),
  bestSingle: { agent: b.bestSingle.agent, chosenBy: 'F1 on the labelled sample (hindsight)', ...metricsOf(b.bestSingle) },
  bestSingleByEx: { agent: b.bestSingleByEx.agent, chosenBy: 'highest share of results agreeing with the gold over all tasks (no labels)', ex: b.bestSingleByEx.ex, ...metricsOf(b.bestSingleByEx) },
  singles: b.singles.map((x) => ({ agent: x.agent, ...metricsOf(x) })),
});

const metricsOf = (s: Scored): Record<string, number> => ({
  tp: s.confusion.tp,
  fp: s.confusion.fp,
  fn: s.confusion.fn,
  tn: s.confusion.tn,
  precision: s.metrics.precision,
  recall: s.metrics.recall,
  f1: s.metrics.f1,
  mcc: s.metrics.mcc,
  specificity: s.metrics.specificity,
  floorF1: s.metrics.floorF1,
  randomF1: s.metrics.randomF1,
});

/** When the calibrated error rate's interval holds, said wherever it is printed. */
export const ERROR_RATE_CONDITIONS =
  "The error-rate interval holds only if the labelled tasks are a simple random sample of the benchmark, drawn independently of where its errors are " +
  '(a change to the benchmark that misses the labelled tasks is seen only through the label-free score, and the estimate can miss it), and only for sampling of the labelled tasks: ' +
  'errors in the hand labels themselves are not in it.';

/** The `--json` object: {"tasks","flagged","metrics","baselines","calibrated", ...}; label parts null without --labels. */
export function auditJson(report: AuditReport, ev: Evaluation | undefined, ctx: AuditContext): Record<string, unknown> {
  return {
    questions: ctx.questions,
    seed: ctx.seed,
    tasks: report.n,
    flagged: report.flagged,
    trivialBaseline: { method: 'tasks more than half of their valid agents fail (no audit)', ...majorityFailCounts(report) },
    agents: report.agents,
    labels: ctx.labelsFile ?? null,
    labelled: ev ? { n: ev.n, errors: ev.errors, missing: ev.missing.length } : null,
    metrics: ev ? metricsOf(ev.sweep) : null,
    byErrorType: ev ? ev.byErrorType : null,
    baselines: ev
      ? {
          comparisons: {
            audit: "the audit's own: normalized results, an agent's forgotten DISTINCT or LIMIT-1 pick among tied rows counts as no opinion",
            ex: "plain EX agreement: BIRD's official set comparison of the raw results",
          },
          audit: baselinesJson(ev.baselines.audit),
          ex: baselinesJson(ev.baselines.ex),
          labelModel: metricsOf(ev.baselines.labelModel),
        }
      : null,
    compare: ev?.compare ? { file: ev.compare.file, flagged: ev.compare.flagged, ...metricsOf(ev.compare) } : null,
    versus: ev ? ev.versus : null,
    ranking: ev ? ev.ranking : null,
    calibrated: ev
      ? {
          estimate: ev.calibrated.estimate,
          ciLow: ev.calibrated.ciLow,
          ciHigh: ev.calibrated.ciHigh,
          labelFree: ev.calibrated.labelFree,
          sampleShare: ev.calibrated.sampleShare,
          method: ev.calibrated.method,
          labelNoise: ev.calibrated.labelNoise ?? null,
          conditions: ERROR_RATE_CONDITIONS,
          roganGladen: { estimate: ev.roganGladen.estimate, ciLow: ev.roganGladen.ciLow, ciHigh: ev.roganGladen.ciHigh, method: ev.roganGladen.method },
        }
      : null,
    labelModel: { method: 'Dawid–Skene EM on LF votes and agent verdicts (abstain as an outcome), anchored by decisive facts; dependent agents, found from residual correlation within the gold-right class, vote as one family', agentFamilies: report.agentFamilies, errorPrior: report.labelModel.errorPrior, iterations: report.labelModel.iterations },
    highConfidence: report.highConfidence,
    decisionPlane: report.plane,
    cpuMs: report.ms,
    executionMs: ctx.executionMs ?? null,
    llmAgents: ctx.llmAgents ?? [],
    llmStopped: ctx.llmStopped ?? null,
  };
}

/** Where a paired interval of ours − theirs puts the audit: ahead, behind, or not told apart by this sample. */
function standing(d: { estimate: number; low: number; high: number }): 'ahead' | 'behind' | 'open' {
  return d.low > 0 ? 'ahead' : d.high < 0 ? 'behind' : 'open';
}

const f3 = (x: number): string => (Number.isFinite(x) ? (x >= 0 ? '+' : '−') + Math.abs(x).toFixed(3) : '–');
const ivText = (d: { estimate: number; low: number; high: number }): string => `${f3(d.estimate)} [${f3(d.low)}, ${f3(d.high)}]`;

/** One sentence per verdict: where the audit is ahead of a baseline, where behind, where the sample cannot tell. */
export function helpsWhere(diffs: readonly (readonly [string, { f1: { estimate: number; low: number; high: number }; mcc: { estimate: number; low: number; high: number } } | undefined])[]): string {
  const ahead: string[] = [];
  const behind: string[] = [];
  let open = 0;
  for (const [name, d] of diffs) {
    if (!d) continue;
    for (const [m, iv] of [['F1', d.f1], ['MCC', d.mcc]] as const) {
      const s = standing(iv);
      if (s === 'ahead') ahead.push(`${name} on ${m} (${ivText(iv)})`);
      else if (s === 'behind') behind.push(`${name} on ${m} (${ivText(iv)})`);
      else open++;
    }
  }
  return (
    `Where the audit helps on these labels: ${ahead.length ? `ahead of ${ahead.join('; ')}` : 'ahead of no baseline'}. ` +
    `Where it does not: ${behind.length ? `behind ${behind.join('; ')}` : 'behind no baseline'}; ${open} other comparisons have an interval spanning 0 (this sample cannot tell). ` +
    'Gains measured only on injected errors (npm run audit-bench) are synthetic and are not evidence here.'
  );
}

const pc = (x: number): string => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '–');

export function auditReport(report: AuditReport, ev: Evaluation | undefined, ctx: AuditContext): Report {
  const sections: Section[] = [];
  const cfg = !report.plane ? 'off (flags from the label model)' : report.plane.config ? `${report.plane.config.aggregation}, CART depth ${report.plane.config.depth}` : 'the label model alone won the held-out-agent selection (flags from the label model)';
  if (ev) {
    const side = (b: Baselines, how: string): { name: string; s: Scored }[] => [
      { name: `majority vote of the agents (${how})`, s: b.majority },
      { name: `best single agent in hindsight, ${b.bestSingle.agent} (${how})`, s: b.bestSingle },
      { name: `best single agent by EX, ${b.bestSingleByEx.agent} (${how})`, s: b.bestSingleByEx },
    ];
    const rows = [
      { name: 'sqlboard audit', s: ev.sweep },
      ...(ev.compare ? [{ name: `flags file (${ev.compare.file.split('/').pop()})`, s: ev.compare }] : []),
      { name: 'label model alone', s: ev.baselines.labelModel },
      ...side(ev.baselines.audit, "audit's comparison"),
      ...side(ev.baselines.ex, 'plain EX'),
    ];
    sections.push({
      title: `Detection of wrong gold on the labelled sample (n = ${ev.n}, ${ev.errors} errors)`,
      notes: [
        `Flag-everything floor F1 ${ev.sweep.metrics.floorF1.toFixed(3)}; labels were read only here, after the audit ran.`,
        `Calibrated error rate of the benchmark (label model's posterior calibrated on the labels, cross-fitted): ${pc(ev.calibrated.estimate)} [${pc(ev.calibrated.ciLow)}, ${pc(ev.calibrated.ciHigh)}]; label-free (label model's prior) ${pc(ev.calibrated.labelFree)}, labelled sample ${pc(ev.calibrated.sampleShare)}, Rogan–Gladen on the flags ${pc(ev.roganGladen.estimate)} [${pc(ev.roganGladen.ciLow)}, ${pc(ev.roganGladen.ciHigh)}].`,
        ERROR_RATE_CONDITIONS,
        ev.calibrated.labelNoise
          ? `Corrected for hand labels wrong with probability ${ev.calibrated.labelNoise.labelErrorRate} (--label-error-rate; (ê − ε)/(1 − 2ε), ε taken as known): ${pc(ev.calibrated.labelNoise.estimate)} [${pc(ev.calibrated.labelNoise.ciLow)}, ${pc(ev.calibrated.labelNoise.ciHigh)}].`
          : 'Hand-label noise is not in this interval: give --label-error-rate R to correct for labels wrong with probability R.',
      ],
      table: {
        columns: [
          { key: 'name', header: 'Detector' },
          { key: 'tp', header: 'TP', format: 'integer' },
          { key: 'fp', header: 'FP', format: 'integer' },
          { key: 'fn', header: 'FN', format: 'integer' },
          { key: 'precision', header: 'Precision', format: 'fixed' },
          { key: 'recall', header: 'Recall', format: 'fixed' },
          { key: 'f1', header: 'F1', format: 'fixed' },
          { key: 'mcc', header: 'MCC', format: 'fixed' },
          { key: 'specificity', header: 'Specificity', format: 'fixed' },
        ],
        rows: rows.map((r) => ({ name: r.name, ...metricsOf(r.s) })),
      },
    });
    const diffs: [string, DetectorDifference | undefined][] = [
      ['label model alone', ev.versus.labelModel],
      ...(['audit', 'ex'] as const).flatMap((c): [string, DetectorDifference][] => {
        const how = c === 'audit' ? "audit's comparison" : 'plain EX';
        return [
          [`majority vote (${how})`, ev.versus[c].majority],
          [`best single agent in hindsight, re-picked per resample (${how})`, ev.versus[c].bestSingle],
          [`best single agent by EX, ${ev.baselines[c].bestSingleByEx.agent} (${how})`, ev.versus[c].bestSingleByEx],
        ];
      }),
      [`flags file (${ev.compare?.file.split('/').pop() ?? ''})`, ev.versus.compare],
    ];
    sections.push({
      title: 'The audit minus each baseline, on the same labelled tasks',
      notes: [
        `${ev.versus.labelModel.f1.method}. "Audit ahead" is the share of resamples in which the audit scores higher. An interval that spans 0 means this sample cannot tell the two apart.`,
        helpsWhere(diffs),
      ],
      table: {
        columns: [
          { key: 'name', header: 'Baseline' },
          { key: 'f1', header: 'ΔF1 [95% CI]', format: 'fixed' },
          { key: 'f1Ahead', header: 'Audit ahead (F1)', format: 'percent' },
          { key: 'mcc', header: 'ΔMCC [95% CI]', format: 'fixed' },
          { key: 'mccAhead', header: 'Audit ahead (MCC)', format: 'percent' },
        ],
        rows: diffs.flatMap(([name, d]) =>
          d
            ? [{ name, f1: d.f1, f1Ahead: d.shareBetterF1, mcc: d.mcc, mccAhead: d.shareBetterMcc }]
            : [],
        ),
      },
    });
    const r = ev.ranking;
    const rankRows: { name: string; q: RankQuality; d?: RankingDifference }[] = [
      { name: 'review-queue score (sqlboard audit)', q: r.audit },
      { name: "label model's P(gold wrong)", q: r.labelModel, d: r.versus.labelModel },
      { name: "agents disagreeing (audit's comparison)", q: r.majority.audit, d: r.versus.majorityAudit },
      { name: 'agents disagreeing (plain EX)', q: r.majority.ex, d: r.versus.majorityEx },
    ];
    sections.push({
      title: `Ranking of the labelled tasks (precision among the top ${r.k} = the labelled errors)`,
      notes: [
        'Δ columns: the review-queue score minus each, paired bootstrap over the labelled tasks.',
        `Trivial baseline: the share of agents that fail the task (agents disagreeing with the gold), which needs no audit. ` +
          [
            ["audit's comparison", r.majority.audit, r.versus.majorityAudit],
            ['plain EX', r.majority.ex, r.versus.majorityEx],
          ]
            .map(([how, q, d]) => {
              const dd = d as RankingDifference;
              const s = standing(dd.auc);
              return `Against it (${how as string}): AUC ${r.audit.auc.toFixed(3)} vs ${(q as RankQuality).auc.toFixed(3)}, Δ ${ivText(dd.auc)} — the audit's ranking is ${s === 'ahead' ? 'better' : s === 'behind' ? 'worse' : 'not shown better or worse'}.`;
            })
            .join(' ') +
          ` The label model's posterior: AUC ${r.labelModel.auc.toFixed(3)}.`,
      ],
      table: {
        columns: [
          { key: 'name', header: 'Score' },
          { key: 'auc', header: 'AUC', format: 'fixed' },
          { key: 'pk', header: 'Precision@k', format: 'fixed' },
          { key: 'dAuc', header: 'ΔAUC [95% CI]', format: 'fixed' },
          { key: 'dPk', header: 'ΔPrecision@k [95% CI]', format: 'fixed' },
        ],
        rows: rankRows.map((x) => ({ name: x.name, auc: x.q.auc, pk: x.q.precisionAtK, dAuc: x.d?.auc ?? null, dPk: x.d?.precisionAtK ?? null })),
      },
    });
    if (Object.keys(ev.byErrorType).length > 0) {
      sections.push({
        title: 'Recall by error type',
        table: {
          columns: [
            { key: 'type', header: 'Error type' },
            { key: 'n', header: 'n', format: 'integer' },
            { key: 'detected', header: 'Detected', format: 'integer' },
            { key: 'recall', header: 'Recall [Wilson 95%]', format: 'fixed' },
          ],
          rows: Object.entries(ev.byErrorType).map(([type, e]) => ({ type, n: e.n, detected: e.detected, recall: e.recallInterval ?? e.recall })),
        },
      });
    }
  }
  sections.push({
    title: 'Agents',
    notes: [
      `All valid agents agree with the gold on ${((report.agentStats.allAgreeRate || 0) * 100).toFixed(1)}% of tasks.`,
      `Beside the audit's ${report.flagged} flags, the trivial baseline that needs no audit: ${majorityFailCounts(report).audit} tasks are failed by more than half of their valid agents under the audit's comparison, ${majorityFailCounts(report).ex} under plain EX. ` +
        (ev
          ? 'The sections above score both on the labels.'
          : 'Without labels neither count says how many flags are right: give --labels to score both, and read "where the audit helps" there.'),
      ...(report.agentFamilies.length > 0 ? [`Dependent agents (each family counts as one voter): ${report.agentFamilies.map((f) => f.join(' + ')).join('; ')}.`] : []),
    ],
    table: {
      columns: [
        { key: 'name', header: 'Agent' },
        { key: 'validRate', header: 'Executes', format: 'percent' },
        { key: 'goldDisagreement', header: 'Disagrees with gold', format: 'percent' },
        // Reliability comes from the decision plane's per-agent models: without --decision-plane there is none to show.
        ...(report.plane?.config ? [{ key: 'meanReliability', header: 'Mean reliability', format: 'fixed' as const }] : []),
      ],
      rows: report.agentStats.agents.map((a) => ({ ...a })),
    },
  });
  if (ctx.llmAgents && ctx.llmAgents.length > 0) sections.push(llmAgentsSection(ctx.llmAgents, ctx.llmStopped));
  sections.push({
    title: 'Labeling functions',
    detail: true,
    table: {
      columns: [
        { key: 'name', header: 'LF' },
        { key: 'family', header: 'Family' },
        { key: 'coverage', header: 'Coverage', format: 'percent' },
        { key: 'overlap', header: 'Overlap', format: 'percent' },
        { key: 'conflict', header: 'Conflict', format: 'percent' },
        { key: 'estimatedAccuracy', header: 'Est. accuracy', format: 'fixed' },
        { key: 'doc', header: 'What it checks' },
      ],
      rows: report.lfStats.map((l) => ({ ...l })),
    },
  });
  return {
    title: 'Audit: wrong gold SQL flagged by weak supervision',
    meta: {
      questions: ctx.questions,
      tasks: report.n,
      agents: report.agents.length,
      flagged: report.flagged,
      'trivial baseline (majority of agents fail)': `${majorityFailCounts(report).audit} (audit's comparison) / ${majorityFailCounts(report).ex} (plain EX)`,
      'decision plane': cfg,
      seed: ctx.seed,
      'CPU pass': `${(report.ms / 1000).toFixed(2)} s`,
    },
    sections,
  };
}

/** How the live LLM agents' SQL was made: counts, calls, tokens, cost, and why tasks have none. */
function llmAgentsSection(agents: readonly LlmAgentSummary[], stopped: string | undefined): Section {
  const notes = [
    'Generated with prompts/agent.md (schema, question, evidence → SQL); calls, tokens and cost are this run\'s (answers from the run store cost nothing now).',
    ...(stopped ? [`Generation stopped early: ${stopped}. Re-run to generate the rest (answers so far are kept).`] : []),
    ...agents.filter((a) => a.failed > 0).map((a) => `${a.name}: ${a.failed} tasks count as missing predictions; e.g. task ${a.failures[0]!.taskId}: ${a.failures[0]!.reason}`),
  ];
  return {
    title: 'LLM agents',
    notes,
    table: {
      columns: [
        { key: 'name', header: 'Agent' },
        { key: 'model', header: 'Model' },
        { key: 'generated', header: 'Generated', format: 'integer' },
        { key: 'failed', header: 'Failed', format: 'integer' },
        { key: 'calls', header: 'Calls', format: 'integer' },
        { key: 'cachedCalls', header: 'Cached', format: 'integer' },
        { key: 'inputTokens', header: 'Input tokens', format: 'integer' },
        { key: 'outputTokens', header: 'Output tokens', format: 'integer' },
        { key: 'costUsd', header: 'Cost (USD)', format: 'fixed', digits: 4 },
      ],
      rows: agents.map((a) => ({
        name: a.name,
        model: `${a.provider}:${a.resolvedModel ?? a.model}`,
        generated: a.generated,
        failed: a.failed,
        calls: a.calls,
        cachedCalls: a.cachedCalls,
        inputTokens: a.inputTokens,
        outputTokens: a.outputTokens,
        costUsd: a.costUsd,
      })),
    },
  };
}
