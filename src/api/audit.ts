import { parseLlmAgentSpecs } from '../audit/agent-specs.js';
import { generateAgentPredictions, type LlmAgentsResult } from '../audit/agents.js';
import { evaluateAudit, readGoldErrorLabels, type Evaluation } from '../audit/evaluate.js';
import { executeForAudit } from '../audit/execute.js';
import { writeAgentSql, writeAuditOutputs } from '../audit/outputs.js';
import { runAuditPipeline } from '../audit/pipeline.js';
import { readErrorFlags } from '../benchmark/error-flags.js';
import { loadBenchmark } from '../benchmark/load-questions.js';
import { loadPredictions } from '../benchmark/load-predictions.js';
import type { RepairName } from '../benchmark/repairs.js';
import { parseSystemSpecs } from '../benchmark/system-specs.js';
import { UserError } from '../errors.js';
import { ExecutionEngine } from '../execution/engine.js';
import { readPriceFile } from '../llm/pricing.js';
import { auditJson, auditReport } from '../report/audit.js';
import { auditExplorer } from '../report/explorer-audit.js';
import { loadNotes } from '../report/load-notes.js';
import { DEFAULT_STORE, openRunStore } from '../store/run-store.js';
import { batchModeOptions, batchSummaryNote, checkLlmCallOptions, type BatchOptions, type LlmCallOptions } from './llm-options.js';
import { atLeast, wholeNumber } from './option-checks.js';
import { withProvenance } from './provenance.js';
import type { CommandResult, RunHooks } from './types.js';

export interface AuditOptions extends LlmCallOptions, BatchOptions, RunHooks {
  /** Questions file with gold SQL (BIRD or Spider format). */
  questions: string;
  /** Directory holding <db_id>/<db_id>.sqlite. */
  dbRoot: string;
  /** NAME=FILE predictions of one agent each (≥ 3 agents together with llmAgent). */
  agent?: string[];
  /** NAME=PROVIDER:MODEL: agents whose SQL an LLM writes now with prompts/agent.md. */
  llmAgent?: string[];
  /** LLM agents: JSON {"model": {"input": n, "output": n}} merged over the price table. */
  priceFile?: string;
  /** Write each LLM agent's SQL to DIR/<name>.sql (Spider text) for score. */
  saveAgentSql?: string;
  /** Labelled sample for evaluation only (query_id,label[,error_type]; 0 = gold error). */
  labels?: string;
  /** Another detector's flags scored on the same sample (needs labels). */
  compareFlags?: string;
  /** Write flags.csv, tasks.jsonl, review.csv, lf-stats.json, agent-stats.json, summary.json (and evaluation.json) here. */
  out?: string;
  /** Seed for cross-validation folds (default 1). */
  seed?: number;
  /** High-confidence examples per class for the decision plane (default 250 × N/1534). */
  k?: number;
  /** Flag with the decision plane instead of the label model (default off). */
  decisionPlane?: boolean;
  /** Per-query time limit in seconds (default 30). */
  timeout?: number;
  /** Run store (SQLite) that makes runs resumable (default results/sqlboard.db). */
  store?: string;
  /** Parallel execution processes (default: one per core). */
  workers?: number;
  /** Opt-in repairs of prediction text, reported with counts. */
  repair?: RepairName[];
  /** Add the per-item explorer (agents' SQL, results, flags) to the report, for its HTML page. */
  explorer?: boolean;
}

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
  const k = specs.length + llmSpecs.length;
  if (k < 3) throw new UserError(`the audit needs at least 3 agents (got ${k}); repeat --agent NAME=FILE or --llm-agent NAME=PROVIDER:MODEL`);
  if (opts.compareFlags && !opts.labels) throw new UserError('--compare-flags needs --labels (it is scored on the labelled sample)');
  const concurrency = checkLlmCallOptions(opts);
  const batch = batchModeOptions(opts, opts.onBatchProgress);
  if (batch && llmSpecs.length === 0) throw new UserError('--batch applies to --llm-agent agents; this audit has none');
  const seed = opts.seed ?? 1;
  wholeNumber('seed', seed);
  atLeast('k', opts.k, 1);
  const storeFile = opts.store ?? DEFAULT_STORE;
  const bench = loadBenchmark(opts.questions);
  const agents = specs.map(([name, file]) => loadPredictions(file, bench, name, { repairs: opts.repair ?? [] }));
  // Read the labels and flags files up front so a bad path fails before minutes of execution; they are not passed to the audit.
  const labels = opts.labels ? readGoldErrorLabels(opts.labels) : undefined;
  const compareFlags = opts.compareFlags ? { file: opts.compareFlags, flags: readErrorFlags(opts.compareFlags) } : undefined;
  const priceTable = opts.priceFile ? readPriceFile(opts.priceFile) : undefined;
  const store = openRunStore(storeFile);
  const engine = new ExecutionEngine({ dbRoot: opts.dbRoot, timeoutSec: opts.timeout ?? 30, store, ...(opts.workers ? { workers: opts.workers } : {}) });
  const release = opts.onStoppable?.(() => (engine.interruptNow(), store.close())) ?? (() => {});
  const notes: string[] = [];
  let inputs;
  let llm: LlmAgentsResult | undefined;
  let executionMs = 0;
  let databases: Record<string, string>;
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
  } finally {
    release();
    await engine.close();
    store.close();
  }
  if (llm?.stopped) notes.push(`LLM agents stopped: ${llm.stopped}; the rest count as missing predictions. Answers so far are kept in ${storeFile}: re-run to continue.`);
  notes.push(...loadNotes(opts.questions, bench, agents));
  if (opts.saveAgentSql && llm) for (const f of writeAgentSql(opts.saveAgentSql, bench, llm.predictions)) notes.push(`wrote ${f}`);
  const report = runAuditPipeline(inputs, { seed, decisionPlane: opts.decisionPlane ?? false, ...(opts.k ? { k: opts.k } : {}) });
  const ev: Evaluation | undefined = labels ? evaluateAudit(report, labels, compareFlags ? { compareFlags } : {}) : undefined;
  const ctx = {
    questions: opts.questions,
    seed,
    executionMs,
    ...(opts.labels ? { labelsFile: opts.labels } : {}),
    ...(llm ? { llmAgents: llm.agents, ...(llm.stopped ? { llmStopped: llm.stopped } : {}) } : {}),
  };
  const json = auditJson(report, ev, ctx);
  if (opts.out) for (const f of writeAuditOutputs(opts.out, report, json, ev)) notes.push(`wrote ${f}`);
  const page = auditReport(report, ev, ctx);
  if (opts.explorer) page.explorer = auditExplorer(bench, inputs, report);
  const llmAgents = llm?.agents ?? [];
  return withProvenance({ report: page, json, notes }, {
    command: 'audit',
    options: opts,
    started,
    databases,
    // Every LLM agent writes with prompts/agent.md.
    prompts: llmAgents.length ? { agent: llmAgents[0]!.promptHash } : {},
    models: llmAgents.map((a) => ({ role: `agent ${a.name}`, provider: a.provider, model: a.resolvedModel ?? a.model })),
    seed,
  });
}
