import type { Argv, CommandModule } from 'yargs';
import { evaluateAudit, readGoldErrorLabels, type Evaluation } from '../audit/evaluate.js';
import { executeForAudit } from '../audit/execute.js';
import { writeAuditOutputs } from '../audit/outputs.js';
import { runAuditPipeline } from '../audit/pipeline.js';
import { loadBenchmark } from '../benchmark/load-questions.js';
import { loadPredictions } from '../benchmark/load-predictions.js';
import { UserError } from '../errors.js';
import { ExecutionEngine } from '../execution/engine.js';
import { auditJson, auditReport } from '../report/audit.js';
import { addReportOptions, emitReport, type ReportOptions } from '../report/output.js';
import { terminalProgress } from '../report/progress.js';
import { DEFAULT_STORE, openRunStore } from '../store/run-store.js';
import { parseSystemSpecs } from '../benchmark/system-specs.js';

interface AuditArgs extends ReportOptions {
  questions: string;
  dbRoot: string;
  agent: string[];
  labels?: string;
  compareFlags?: string;
  out?: string;
  seed: number;
  k?: number;
  timeout: number;
  store: string;
  workers?: number;
}

export const auditCommand: CommandModule<object, AuditArgs> = {
  command: 'audit',
  describe: 'Flag wrong gold SQL by weak supervision over several agents\' SQL (SALUS-style, label-free)',
  builder: (y: Argv) =>
    addReportOptions(
      y
        .option('questions', { type: 'string', demandOption: true, describe: 'Questions file with gold SQL (BIRD or Spider format)' })
        .option('db-root', { type: 'string', demandOption: true, describe: 'Directory holding <db_id>/<db_id>.sqlite' })
        .option('agent', { type: 'string', array: true, demandOption: true, describe: 'NAME=FILE predictions of one agent (repeat; ≥ 3)' })
        .option('labels', { type: 'string', describe: 'Labelled sample for evaluation only (query_id,label[,error_type]; 0 = gold error)' })
        .option('compare-flags', { type: 'string', describe: 'Another detector\'s flags (task_id,predicted_label; 0 = flagged) scored on the same sample' })
        .option('out', { type: 'string', describe: 'Write flags.csv, tasks.jsonl, lf-stats.json, agent-stats.json, summary.json here' })
        .option('seed', { type: 'number', default: 1, describe: 'Seed for cross-validation folds' })
        .option('k', { type: 'number', describe: 'High-confidence examples per class (default 250 × N/1534)' })
        .option('timeout', { type: 'number', default: 30, describe: 'Per-query time limit in seconds' })
        .option('store', { type: 'string', default: DEFAULT_STORE, describe: 'Run store (SQLite) that makes runs resumable' })
        .option('workers', { type: 'number', describe: 'Parallel execution processes (default: one per core)' }),
    ) as unknown as Argv<AuditArgs>,
  handler: async (argv) => {
    const specs = parseSystemSpecs(argv.agent, 'agent');
    if (specs.length < 3) throw new UserError(`the audit needs at least 3 agents (got ${specs.length}); repeat --agent NAME=FILE`);
    if (argv.compareFlags && !argv.labels) throw new UserError('--compare-flags needs --labels (it is scored on the labelled sample)');
    const bench = loadBenchmark(argv.questions);
    const agents = specs.map(([name, file]) => loadPredictions(file, bench, name));
    // Read the labels file up front so a bad path fails before minutes of execution; it is not passed to the audit.
    const labels = argv.labels ? readGoldErrorLabels(argv.labels) : undefined;
    const store = openRunStore(argv.store);
    const engine = new ExecutionEngine({ dbRoot: argv.dbRoot, timeoutSec: argv.timeout, store, ...(argv.workers ? { workers: argv.workers } : {}) });
    engine.checkDatabases(bench.tasks.map((t) => t.dbId));
    const progress = terminalProgress('executing');
    const t0 = performance.now();
    let inputs;
    try {
      inputs = await executeForAudit(bench, agents, engine, (d, t) => progress.update(d, t));
    } finally {
      progress.stop();
      await engine.close();
      store.close();
    }
    const executionMs = performance.now() - t0;
    const report = runAuditPipeline(inputs, { seed: argv.seed, ...(argv.k ? { k: argv.k } : {}) });
    const ev: Evaluation | undefined = labels ? evaluateAudit(report, labels, argv.compareFlags ? { compareFlags: argv.compareFlags } : {}) : undefined;
    const ctx = { questions: argv.questions, seed: argv.seed, executionMs, ...(argv.labels ? { labelsFile: argv.labels } : {}) };
    const json = auditJson(report, ev, ctx);
    if (argv.out) for (const f of writeAuditOutputs(argv.out, report, json, ev)) process.stderr.write(`sqlboard: wrote ${f}\n`);
    emitReport(auditReport(report, ev, ctx), json, argv);
  },
};
