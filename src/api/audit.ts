import type { SqliteInUse } from '../execution/sqlite-check.js';
import { parseLlmAgentSpecs } from '../audit/agent-specs.js';
import { generateAgentPredictions, type LlmAgentsResult } from '../audit/agents.js';
import { evaluateAudit, readGoldErrorLabels, type Evaluation } from '../audit/evaluate.js';
import { executeForAudit } from '../audit/execute.js';
import { writeAgentSql, writeAuditOutputs } from '../audit/outputs.js';
import { runAuditPipeline } from '../audit/pipeline.js';
import { readErrorFlags } from '../benchmark/error-flags.js';
import { loadBenchmark } from '../benchmark/load-questions.js';
import { loadPredictions } from '../benchmark/load-predictions.js';
import { parseSystemSpecs } from '../benchmark/system-specs.js';
import { ExecutionEngine } from '../execution/engine.js';
import { readPriceFile } from '../llm/pricing.js';
import { auditJson, auditReport } from '../report/audit.js';
import { auditExplorer } from '../report/explorer-audit.js';
import { loadNotes } from '../report/load-notes.js';
import { openRunStore } from '../store/run-store.js';
import { BATCH_CHECK_ORDER, LLM_CHECK_ORDER, batchModeOptions, batchSummaryNote } from './llm-options.js';
import { resolveOptions, type OptionValues } from './option-table.js';
import { withProvenance } from './provenance.js';
import type { CommandResult, RunHooks } from './types.js';
import { AUDIT_OPTIONS } from './audit-options.js';

/** The order in which audit has always reported option errors (after the agents' specs are read). */
const AUDIT_CHECK_ORDER = ['agent', 'compare-flags', ...LLM_CHECK_ORDER, ...BATCH_CHECK_ORDER, 'seed', 'k'] as const;

export type AuditOptions = OptionValues<typeof AUDIT_OPTIONS> &
  RunHooks & {
    /** Add the per-item explorer (agents' SQL, results, flags) to the report, for its HTML page. */
    explorer?: boolean;
  };

/** An audit that ran: its report, and why it is partial (never, today: a stop leaves missing predictions, not missing tasks). */
export interface AuditResult extends CommandResult {
  waiting?: undefined;
}

/** An audit that did not run because LLM agents' generations still wait for provider batches (`batchWait: 'none'`). */
export interface AuditWaiting {
  /** Generations that wait for submitted batches. */
  waiting: number;
  notes: string[];
  report?: undefined;
  json?: undefined;
}

/** SALUS-style weak supervision that flags wrong gold SQL from several agents' SQL (`sqlboard audit`). */
export async function audit(opts: AuditOptions): Promise<AuditResult | AuditWaiting> {
  const started = new Date();
  const specs = parseSystemSpecs(opts.agent ?? [], 'agent');
  const llmSpecs = parseLlmAgentSpecs(opts.llmAgent ?? [], specs.map(([name]) => name));
  // The agents' specs are read first: a malformed one is reported before any option rule, as it always was.
  const o = resolveOptions(AUDIT_OPTIONS, opts, AUDIT_CHECK_ORDER);
  const { concurrency, seed, store: storeFile } = o;
  const batch = batchModeOptions(o, opts.onBatchProgress);
  const bench = loadBenchmark(opts.questions);
  const agents = specs.map(([name, file]) => loadPredictions(file, bench, name, { repairs: opts.repair ?? [] }));
  // Read the labels and flags files up front so a bad path fails before minutes of execution; they are not passed to the audit.
  const labels = opts.labels ? readGoldErrorLabels(opts.labels) : undefined;
  const compareFlags = opts.compareFlags ? { file: opts.compareFlags, flags: readErrorFlags(opts.compareFlags) } : undefined;
  const priceTable = opts.priceFile ? readPriceFile(opts.priceFile) : undefined;
  const store = openRunStore(storeFile);
  const engine = new ExecutionEngine({ dbRoot: opts.dbRoot, timeoutSec: o.timeout, store, ...(opts.workers ? { workers: opts.workers } : {}) });
  const release = opts.onStoppable?.(() => (engine.interruptNow(), store.close())) ?? (() => {});
  const notes: string[] = [];
  let inputs;
  let llm: LlmAgentsResult | undefined;
  let executionMs = 0;
  let databases: Record<string, string>;
  let sqlite: SqliteInUse | undefined;
  try {
    engine.checkDatabases(bench.tasks);
    if (llmSpecs.length > 0) {
      llm = await generateAgentPredictions({
        agents: llmSpecs,
        bench,
        dbRoot: opts.dbRoot,
        baseUrl: opts.baseUrl,
        replayFile: opts.replay,
        store,
        concurrency,
        maxCostUsd: opts.maxCostUsd,
        maxCalls: opts.maxCalls,
        priceTable,
        onProgress: (d, t) => opts.onProgress?.('generating SQL', d, t),
        ...(batch ? { batch } : {}),
      });
      if (llm.batch) notes.push(batchSummaryNote(llm.batch));
      if (llm.waiting) {
        // batchWait 'none': the agents' SQL is not all there yet, and an audit without it would mislead.
        notes.push(`${llm.waiting} generations wait for submitted batches (ids in ${storeFile}; \`sqlboard batch status\`): run the same command again to collect them and run the audit.`);
        return { waiting: llm.waiting, notes };
      }
      agents.push(...llm.predictions);
    }
    const t0 = performance.now();
    inputs = await executeForAudit(bench, agents, engine, (d, t) => opts.onProgress?.('executing', d, t));
    executionMs = performance.now() - t0;
    databases = await engine.databaseHashes();
    sqlite = engine.sqlite;
  } finally {
    release();
    await engine.close();
    store.close();
  }
  if (llm?.stopped) notes.push(`LLM agents stopped: ${llm.stopped}; the rest count as missing predictions. Answers so far are kept in ${storeFile}: re-run to continue.`);
  notes.push(...engine.notes, ...loadNotes(opts.questions, bench, agents));
  if (opts.saveAgentSql && llm) for (const f of writeAgentSql(opts.saveAgentSql, bench, llm.predictions)) notes.push(`wrote ${f}`);
  const report = runAuditPipeline(inputs, { seed, decisionPlane: o.decisionPlane, ...(opts.k ? { k: opts.k } : {}) });
  const ev: Evaluation | undefined = labels ? evaluateAudit(report, labels, { ...(compareFlags ? { compareFlags } : {}), ...(opts.labelErrorRate !== undefined ? { labelErrorRate: opts.labelErrorRate } : {}) }) : undefined;
  const ctx = {
    questions: opts.questions,
    seed,
    executionMs,
    ...(opts.labels ? { labelsFile: opts.labels } : {}),
    ...(llm ? { llmAgents: llm.agents, ...(llm.stopped ? { llmStopped: llm.stopped } : {}) } : {}),
  };
  const json = auditJson(report, ev, ctx);
  const page = auditReport(report, ev, ctx);
  if (opts.explorer) page.explorer = auditExplorer(bench, inputs, report);
  const llmAgents = llm?.agents ?? [];
  const result = withProvenance({ report: page, json, notes }, {
    command: 'audit',
    options: opts,
    started,
    databases,
    ...(sqlite ? { sqlite } : {}),
    // Every LLM agent writes with prompts/agent.md.
    prompts: llmAgents.length ? { agent: llmAgents[0]!.promptHash } : {},
    models: llmAgents.map((a) => ({ role: `agent ${a.name}`, provider: a.provider, model: a.resolvedModel ?? a.model })),
    seed,
  });
  // summary.json is the --json object, schemaVersion and meta included: the provenance of every file of the directory.
  if (opts.out) for (const f of writeAuditOutputs(opts.out, report, result.json, ev)) notes.push(`wrote ${f}`);
  return result;
}
