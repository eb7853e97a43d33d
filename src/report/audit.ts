import type { Evaluation, Scored } from '../audit/evaluate.js';
import type { AuditReport } from '../audit/pipeline.js';
import type { LlmAgentSummary } from '../judge/agents.js';
import type { Report, Section } from './model.js';
import type { DetectorDifference } from '../stats/detector-difference.js';

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

/** The `--json` object: {"tasks","flagged","metrics","baselines","calibrated", ...}; label parts null without --labels. */
export function auditJson(report: AuditReport, ev: Evaluation | undefined, ctx: AuditContext): Record<string, unknown> {
  return {
    questions: ctx.questions,
    seed: ctx.seed,
    tasks: report.n,
    flagged: report.flagged,
    agents: report.agents,
    labels: ctx.labelsFile ?? null,
    labelled: ev ? { n: ev.n, errors: ev.errors, missing: ev.missing.length } : null,
    metrics: ev ? metricsOf(ev.sweep) : null,
    byErrorType: ev ? ev.byErrorType : null,
    baselines: ev
      ? {
          majority: metricsOf(ev.baselines.majority),
          bestSingle: { agent: ev.baselines.bestSingle.agent, chosenBy: 'F1 on the labelled sample (hindsight)', ...metricsOf(ev.baselines.bestSingle) },
          bestSingleByEx: { agent: ev.baselines.bestSingleByEx.agent, chosenBy: "highest share of results agreeing with the gold over all tasks (the audit's normalized comparison; no labels)", ex: ev.baselines.bestSingleByEx.ex, ...metricsOf(ev.baselines.bestSingleByEx) },
          labelModel: metricsOf(ev.baselines.labelModel),
          singles: ev.baselines.singles.map((s) => ({ agent: s.agent, ...metricsOf(s) })),
        }
      : null,
    compare: ev?.compare ? { file: ev.compare.file, flagged: ev.compare.flagged, ...metricsOf(ev.compare) } : null,
    versus: ev ? ev.versus : null,
    calibrated: ev ? { estimate: ev.calibrated.estimate, ciLow: ev.calibrated.ciLow, ciHigh: ev.calibrated.ciHigh, method: ev.calibrated.method } : null,
    labelModel: { method: 'Dawid–Skene EM on LF votes and agent verdicts (abstain as an outcome), anchored by decisive facts; dependent agents, found from residual correlation within the gold-right class, vote as one family', agentFamilies: report.agentFamilies, errorPrior: report.labelModel.errorPrior, iterations: report.labelModel.iterations },
    highConfidence: report.highConfidence,
    decisionPlane: report.plane,
    cpuMs: report.ms,
    executionMs: ctx.executionMs ?? null,
    llmAgents: ctx.llmAgents ?? [],
    llmStopped: ctx.llmStopped ?? null,
  };
}

export function auditReport(report: AuditReport, ev: Evaluation | undefined, ctx: AuditContext): Report {
  const sections: Section[] = [];
  const cfg = report.plane ? `${report.plane.config.aggregation}, CART depth ${report.plane.config.depth}` : 'label model only';
  if (ev) {
    const rows = [
      { name: 'sqlboard audit', s: ev.sweep },
      ...(ev.compare ? [{ name: `flags file (${ev.compare.file.split('/').pop()})`, s: ev.compare }] : []),
      { name: 'majority vote of the agents', s: ev.baselines.majority },
      { name: `best single agent in hindsight (${ev.baselines.bestSingle.agent})`, s: ev.baselines.bestSingle },
      { name: `best single agent by EX (${ev.baselines.bestSingleByEx.agent})`, s: ev.baselines.bestSingleByEx },
      { name: 'label model alone', s: ev.baselines.labelModel },
    ];
    sections.push({
      title: `Detection of wrong gold on the labelled sample (n = ${ev.n}, ${ev.errors} errors)`,
      notes: [
        `Flag-everything floor F1 ${ev.sweep.metrics.floorF1.toFixed(3)}; labels were read only here, after the audit ran.`,
        `Calibrated error rate of the benchmark (Rogan–Gladen): ${(ev.calibrated.estimate * 100).toFixed(1)}% [${(ev.calibrated.ciLow * 100).toFixed(1)}%, ${(ev.calibrated.ciHigh * 100).toFixed(1)}%].`,
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
      ['majority vote', ev.versus.majority],
      [`best single agent in hindsight (re-picked per resample)`, ev.versus.bestSingle],
      [`best single agent by EX (${ev.baselines.bestSingleByEx.agent})`, ev.versus.bestSingleByEx],
      ['label model alone', ev.versus.labelModel],
      [`flags file (${ev.compare?.file.split('/').pop() ?? ''})`, ev.versus.compare],
    ];
    sections.push({
      title: 'The audit minus each baseline, on the same labelled tasks',
      notes: [
        `${ev.versus.majority.f1.method}. "Audit ahead" is the share of resamples in which the audit scores higher. An interval that spans 0 means this sample cannot tell the two apart.`,
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
    if (Object.keys(ev.byErrorType).length > 0) {
      sections.push({
        title: 'Recall by error type',
        table: {
          columns: [
            { key: 'type', header: 'Error type' },
            { key: 'n', header: 'n', format: 'integer' },
            { key: 'detected', header: 'Detected', format: 'integer' },
            { key: 'recall', header: 'Recall', format: 'fixed' },
          ],
          rows: Object.entries(ev.byErrorType).map(([type, e]) => ({ type, ...e })),
        },
      });
    }
  }
  sections.push({
    title: 'Agents',
    notes: [
      `All valid agents agree with the gold on ${((report.agentStats.allAgreeRate || 0) * 100).toFixed(1)}% of tasks.`,
      ...(report.agentFamilies.length > 0 ? [`Dependent agents (each family counts as one voter): ${report.agentFamilies.map((f) => f.join(' + ')).join('; ')}.`] : []),
    ],
    table: {
      columns: [
        { key: 'name', header: 'Agent' },
        { key: 'validRate', header: 'Executes', format: 'percent' },
        { key: 'goldDisagreement', header: 'Disagrees with gold', format: 'percent' },
        { key: 'meanReliability', header: 'Mean reliability', format: 'fixed' },
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
