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
import { DEFAULT_STORE, openRunStore } from '../store/run-store.js';
import { BATCH_CHECK_ORDER, BATCH_OPTIONS, LLM_CALL_OPTIONS, LLM_CHECK_ORDER, batchModeOptions, batchSummaryNote } from './llm-options.js';
import { resolveOptions, scopedOptions, type OptionTable, type OptionValues } from './option-table.js';
import { REPAIR_OPTIONS } from './shared-options.js';
import { refuse, whole, type OptionCheck } from './option-checks.js';
import { withProvenance } from './provenance.js';
import type { CommandResult, RunHooks } from './types.js';

/** File agents and LLM agents together: the label model needs at least three voters. */
const threeAgents: OptionCheck = (agents, o) => {
  const k = (agents as string[]).length + (o.llmAgent as string[]).length;
  return k < 3 ? `the audit needs at least 3 agents (got ${k}); repeat --agent NAME=FILE or --llm-agent NAME=PROVIDER:MODEL` : undefined;
};

const BATCH = scopedOptions(BATCH_OPTIONS, 'LLM agents');

/** `sqlboard audit`'s options: the CLI's flags and the library's options object (camelCase) come from here. */
export const AUDIT_OPTIONS = {
  ...REPAIR_OPTIONS,
  questions: { type: 'string', demandOption: true, describe: 'Questions file with gold SQL (BIRD or Spider format)' },
  'db-root': { type: 'string', demandOption: true, describe: 'Directory holding <db_id>/<db_id>.sqlite' },
  agent: { type: 'string', array: true, default: [], describe: 'NAME=FILE predictions of one agent (repeat; ≥ 3 agents with --llm-agent)', checks: [threeAgents] },
  'llm-agent': {
    type: 'string',
    array: true,
    default: [],
    describe: 'NAME=PROVIDER:MODEL: an agent whose SQL an LLM writes now with prompts/agent.md (openai: OPENAI_API_KEY, gemini: GEMINI_API_KEY, replay: --replay)',
  },
  'price-file': { type: 'string', describe: 'LLM agents: JSON {"model": {"input": n, "output": n}} (USD per million tokens) merged over the price table' },
  'save-agent-sql': { type: 'string', describe: "Write each LLM agent's SQL to DIR/<name>.sql (Spider text, one line per task) for sqlboard score" },
  labels: { type: 'string', describe: 'Labelled sample for evaluation only (query_id,label[,error_type]; 0 = gold error)' },
  'compare-flags': {
    type: 'string',
    describe: "Another detector's flags (task_id,predicted_label; 0 = flagged) scored on the same sample",
    checks: [refuse((flags, o) => Boolean(flags) && !o.labels, '--compare-flags needs --labels (it is scored on the labelled sample)')],
  },
  out: { type: 'string', describe: 'Write flags.csv, tasks.jsonl, review.csv, lf-stats.json, agent-stats.json, summary.json (and evaluation.json with --labels) here' },
  seed: { type: 'number', default: 1, describe: 'Seed for cross-validation folds', checks: [whole] },
  k: { type: 'number', describe: 'High-confidence examples per class for --decision-plane (default 250 × N/1534)', min: 1 },
  'decision-plane': {
    type: 'boolean',
    default: false,
    describe: 'Let the decision plane (per-agent CART reliability) compete with the label model for the flags; chosen only when it agrees better with held-out agents beyond chance; off by default (README)',
  },
  timeout: { type: 'number', default: 30, describe: 'Per-query time limit in seconds' },
  store: { type: 'string', default: DEFAULT_STORE, describe: 'Run store (SQLite) that makes runs resumable' },
  workers: { type: 'number', describe: 'Parallel execution processes (default: one per core)' },
  ...scopedOptions(LLM_CALL_OPTIONS, 'LLM agents'),
  ...BATCH,
  batch: { ...BATCH.batch, checks: [...BATCH.batch.checks, refuse((batch, o) => batch === true && (o.llmAgent as string[]).length === 0, '--batch applies to --llm-agent agents; this audit has none')] },
} as const satisfies OptionTable;

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
  const report = runAuditPipeline(inputs, { seed, decisionPlane: o.decisionPlane, ...(opts.k ? { k: opts.k } : {}) });
  const ev: Evaluation | undefined = labels ? evaluateAudit(report, labels, compareFlags ? { compareFlags } : {}) : undefined;
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
    // Every LLM agent writes with prompts/agent.md.
    prompts: llmAgents.length ? { agent: llmAgents[0]!.promptHash } : {},
    models: llmAgents.map((a) => ({ role: `agent ${a.name}`, provider: a.provider, model: a.resolvedModel ?? a.model })),
    seed,
  });
  // summary.json is the --json object, schemaVersion and meta included: the provenance of every file of the directory.
  if (opts.out) for (const f of writeAuditOutputs(opts.out, report, result.json, ev)) notes.push(`wrote ${f}`);
  return result;
}
