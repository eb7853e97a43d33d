import { join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { evaluateAudit, readGoldErrorLabels, type Evaluation } from '../audit/evaluate.js';
import { executeForAudit } from '../audit/execute.js';
import { AUDIT_OUTPUT_FILES, agentSqlPath, writeAgentSql, writeAuditOutputs } from '../audit/outputs.js';
import { runAuditPipeline } from '../audit/pipeline.js';
import { readErrorFlags } from '../benchmark/error-flags.js';
import { loadBenchmark } from '../benchmark/load-questions.js';
import { loadPredictions } from '../benchmark/load-predictions.js';
import type { RepairName } from '../benchmark/repairs.js';
import { UserError } from '../errors.js';
import { atLeast, wholeNumber } from '../api/option-checks.js';
import { addBatchOptions, addLlmCallOptions, batchModeOptions, batchSummaryLine, checkLlmCallOptions } from './llm-options.js';
import type { BatchArgs } from './llm-options.js';
import { batchProgressLine } from './batch-progress.js';
import { ExitCode, raiseExitCode } from '../exit-codes.js';
import { ExecutionEngine } from '../execution/engine.js';
import { auditJson, auditReport } from '../report/audit.js';
import { auditExplorer } from '../report/explorer-audit.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { addReportOptions, checkOutputs } from './report-options.js';
import { loadNotes } from '../report/load-notes.js';
import { terminalProgress } from './progress.js';
import { stopCleanlyOnSignals } from './interrupt.js';
import { DEFAULT_STORE, openRunStore } from '../store/run-store.js';
import { parseSystemSpecs } from '../benchmark/system-specs.js';
import { parseLlmAgentSpecs } from '../audit/agent-specs.js';
import { generateAgentPredictions, type LlmAgentsResult } from '../audit/agents.js';
import { readPriceFile } from '../llm/pricing.js';
import { VERBS } from './verbs.js';
import { addRepairOption } from './repair-option.js';

interface AuditArgs extends ReportOptions, BatchArgs {
  repair?: RepairName[];
  questions: string;
  dbRoot: string;
  agent: string[];
  llmAgent: string[];
  baseUrl?: string;
  replay?: string;
  concurrency: number;
  maxCostUsd?: number;
  maxCalls?: number;
  priceFile?: string;
  saveAgentSql?: string;
  labels?: string;
  compareFlags?: string;
  out?: string;
  seed: number;
  k?: number;
  decisionPlane: boolean;
  timeout: number;
  store: string;
  workers?: number;
}

export const auditCommand: CommandModule<object, AuditArgs> = {
  ...VERBS.audit,
  builder: (y: Argv) =>
    addReportOptions(
      addBatchOptions(addLlmCallOptions(
      addRepairOption(y)
        .option('questions', { type: 'string', demandOption: true, describe: 'Questions file with gold SQL (BIRD or Spider format)' })
        .option('db-root', { type: 'string', demandOption: true, describe: 'Directory holding <db_id>/<db_id>.sqlite' })
        .option('agent', { type: 'string', array: true, default: [], describe: 'NAME=FILE predictions of one agent (repeat; ≥ 3 agents with --llm-agent)' })
        .option('llm-agent', { type: 'string', array: true, default: [], describe: 'NAME=PROVIDER:MODEL: an agent whose SQL an LLM writes now with prompts/agent.md (openai: OPENAI_API_KEY, gemini: GEMINI_API_KEY, replay: --replay)' })
        .option('price-file', { type: 'string', describe: 'LLM agents: JSON {"model": {"input": n, "output": n}} (USD per million tokens) merged over the price table' })
        .option('save-agent-sql', { type: 'string', describe: "Write each LLM agent's SQL to DIR/<name>.sql (Spider text, one line per task) for sqlboard score" })
        .option('labels', { type: 'string', describe: 'Labelled sample for evaluation only (query_id,label[,error_type]; 0 = gold error)' })
        .option('compare-flags', { type: 'string', describe: 'Another detector\'s flags (task_id,predicted_label; 0 = flagged) scored on the same sample' })
        .option('out', { type: 'string', describe: 'Write flags.csv, tasks.jsonl, review.csv, lf-stats.json, agent-stats.json, summary.json (and evaluation.json with --labels) here' })
        .option('seed', { type: 'number', default: 1, describe: 'Seed for cross-validation folds' })
        .option('k', { type: 'number', describe: 'High-confidence examples per class for --decision-plane (default 250 × N/1534)' })
        .option('decision-plane', { type: 'boolean', default: false, describe: 'Flag with the decision plane (per-agent CART reliability) instead of the label model; off by default (README)' })
        .option('timeout', { type: 'number', default: 30, describe: 'Per-query time limit in seconds' })
        .option('store', { type: 'string', default: DEFAULT_STORE, describe: 'Run store (SQLite) that makes runs resumable' })
        .option('workers', { type: 'number', describe: 'Parallel execution processes (default: one per core)' }), 'LLM agents'), 'LLM agents'),
    ) as unknown as Argv<AuditArgs>,
  handler: async (argv) => {
    const specs = parseSystemSpecs(argv.agent, 'agent');
    const llmSpecs = parseLlmAgentSpecs(argv.llmAgent, specs.map(([name]) => name));
    const k = specs.length + llmSpecs.length;
    if (k < 3) throw new UserError(`the audit needs at least 3 agents (got ${k}); repeat --agent NAME=FILE or --llm-agent NAME=PROVIDER:MODEL`);
    if (argv.compareFlags && !argv.labels) throw new UserError('--compare-flags needs --labels (it is scored on the labelled sample)');
    checkLlmCallOptions(argv);
    checkOutputs(argv, {
      inputs: {
        '--questions': argv.questions,
        '--db-root': argv.dbRoot,
        '--agent': specs.map(([, file]) => file),
        '--labels': argv.labels,
        '--compare-flags': argv.compareFlags,
        '--price-file': argv.priceFile,
        '--replay': argv.replay,
        '--store': argv.store,
      },
      outputs: {
        '--out': argv.out === undefined ? undefined : AUDIT_OUTPUT_FILES.map((f) => join(argv.out!, f)),
        '--save-agent-sql': argv.saveAgentSql === undefined ? undefined : llmSpecs.map((a) => agentSqlPath(argv.saveAgentSql!, a.name)),
        '--store': argv.store,
      },
    });
    const batchProgress = batchProgressLine();
    const batch = batchModeOptions(argv, (p) => {
      // The bar exists by the time a wave polls.
      genProgress.stop();
      batchProgress(p);
    });
    if (batch && llmSpecs.length === 0) throw new UserError('--batch applies to --llm-agent agents; this audit has none');
    wholeNumber('seed', argv.seed);
    atLeast('k', argv.k, 1);
    const bench = loadBenchmark(argv.questions);
    const agents = specs.map(([name, file]) => loadPredictions(file, bench, name, { repairs: argv.repair ?? [] }));
    // Read the labels and flags files up front so a bad path fails before minutes of execution; they are not passed to the audit.
    const labels = argv.labels ? readGoldErrorLabels(argv.labels) : undefined;
    const compareFlags = argv.compareFlags ? { file: argv.compareFlags, flags: readErrorFlags(argv.compareFlags) } : undefined;
    const priceTable = argv.priceFile ? readPriceFile(argv.priceFile) : undefined;
    const store = openRunStore(argv.store);
    const engine = new ExecutionEngine({ dbRoot: argv.dbRoot, timeoutSec: argv.timeout, store, ...(argv.workers ? { workers: argv.workers } : {}) });
    const release = stopCleanlyOnSignals({ store: argv.store, stopNow: () => (engine.interruptNow(), store.close()) });
    const genProgress = terminalProgress('generating SQL');
    const progress = terminalProgress('executing');
    let inputs;
    let llm: LlmAgentsResult | undefined;
    let executionMs = 0;
    try {
      engine.checkDatabases(bench.tasks);
      if (llmSpecs.length > 0) {
        llm = await generateAgentPredictions({
          agents: llmSpecs,
          bench,
          dbRoot: argv.dbRoot,
          baseUrl: argv.baseUrl,
          replayFile: argv.replay,
          store,
          concurrency: argv.concurrency,
          maxCostUsd: argv.maxCostUsd,
          maxCalls: argv.maxCalls,
          priceTable,
          onProgress: (d, t) => genProgress.update(d, t),
          ...(batch ? { batch } : {}),
        });
        genProgress.stop();
        if (llm.batch) process.stderr.write(batchSummaryLine(llm.batch));
        if (llm.waiting) {
          // --batch-wait none: the agents' SQL is not all there yet, and an audit without it would mislead.
          process.stderr.write(`sqlboard: ${llm.waiting} generations wait for submitted batches (ids in ${argv.store}; \`sqlboard batch status\`): run the same command again to collect them and run the audit.\n`);
          raiseExitCode(ExitCode.Partial);
          return;
        }
        agents.push(...llm.predictions);
      }
      const t0 = performance.now();
      inputs = await executeForAudit(bench, agents, engine, (d, t) => progress.update(d, t));
      executionMs = performance.now() - t0;
    } finally {
      release();
      genProgress.stop();
      progress.stop();
      await engine.close();
      store.close();
    }
    if (llm?.stopped) process.stderr.write(`sqlboard: LLM agents stopped: ${llm.stopped}; the rest count as missing predictions. Answers so far are kept in ${argv.store}: re-run to continue.\n`);
    for (const line of loadNotes(argv.questions, bench, agents)) process.stderr.write(line);
    if (argv.saveAgentSql && llm) for (const f of writeAgentSql(argv.saveAgentSql, bench, llm.predictions)) process.stderr.write(`sqlboard: wrote ${f}\n`);
    const report = runAuditPipeline(inputs, { seed: argv.seed, decisionPlane: argv.decisionPlane, ...(argv.k ? { k: argv.k } : {}) });
    const ev: Evaluation | undefined = labels ? evaluateAudit(report, labels, compareFlags ? { compareFlags } : {}) : undefined;
    const ctx = {
      questions: argv.questions,
      seed: argv.seed,
      executionMs,
      ...(argv.labels ? { labelsFile: argv.labels } : {}),
      ...(llm ? { llmAgents: llm.agents, ...(llm.stopped ? { llmStopped: llm.stopped } : {}) } : {}),
    };
    const json = auditJson(report, ev, ctx);
    if (argv.out) for (const f of writeAuditOutputs(argv.out, report, json, ev)) process.stderr.write(`sqlboard: wrote ${f}\n`);
    const page = auditReport(report, ev, ctx);
    if (argv.html !== undefined) page.explorer = auditExplorer(bench, inputs, report);
    emitReport(page, json, argv);
  },
};
