import { join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { audit } from '../api/audit.js';
import type { RepairName } from '../benchmark/repairs.js';
import { addBatchOptions, addLlmCallOptions } from './llm-options.js';
import type { BatchArgs } from './llm-options.js';
import { ExitCode, raiseExitCode } from '../exit-codes.js';
import type { BatchFallback, BatchWait } from '../llm/batch/waves.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { addReportOptions, checkOutputs } from './report-options.js';
import { parseSystemSpecs } from '../benchmark/system-specs.js';
import { parseLlmAgentSpecs } from '../audit/agent-specs.js';
import { AUDIT_OUTPUT_FILES, agentSqlPath } from '../audit/outputs.js';
import { printNotes } from './outcome.js';
import { runProgress } from './progress.js';
import { DEFAULT_STORE } from '../store/run-store.js';
import { stopOnSignals } from './interrupt.js';
import { apiOptions } from './api-options.js';
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
        .option('decision-plane', { type: 'boolean', default: false, describe: 'Let the decision plane (per-agent CART reliability) compete with the label model for the flags; chosen only when it agrees better with held-out agents beyond chance; off by default (README)' })
        .option('timeout', { type: 'number', default: 30, describe: 'Per-query time limit in seconds' })
        .option('store', { type: 'string', default: DEFAULT_STORE, describe: 'Run store (SQLite) that makes runs resumable' })
        .option('workers', { type: 'number', describe: 'Parallel execution processes (default: one per core)' }), 'LLM agents'), 'LLM agents'),
    ) as unknown as Argv<AuditArgs>,
  handler: async (argv) => {
    const specs = parseSystemSpecs(argv.agent, 'agent');
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
        '--save-agent-sql': argv.saveAgentSql === undefined ? undefined : parseLlmAgentSpecs(argv.llmAgent, specs.map(([name]) => name)).map((a) => agentSqlPath(argv.saveAgentSql!, a.name)),
        '--store': argv.store,
      },
    });
    const progress = runProgress();
    let result;
    try {
      result = await audit({ ...apiOptions(argv), batchWait: argv.batchWait as BatchWait, batchFallback: argv.batchFallback as BatchFallback, explorer: argv.html !== undefined, ...progress, onStoppable: stopOnSignals(argv.store) });
    } finally {
      progress.stop();
    }
    printNotes(result.notes);
    if (result.waiting !== undefined) {
      raiseExitCode(ExitCode.Partial);
      return;
    }
    emitReport(result.report, result.json, argv);
  },
};
