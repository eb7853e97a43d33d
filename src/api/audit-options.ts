import { DEFAULT_STORE } from '../store/default-store.js';
import { BATCH_OPTIONS, LLM_CALL_OPTIONS } from './llm-options.js';
import { scopedOptions, type OptionTable } from './option-table.js';
import { REPAIR_OPTIONS } from './shared-options.js';
import { refuse, whole, type OptionCheck } from './option-checks.js';

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
  'label-error-rate': {
    type: 'number',
    describe: "The hand labels' own error rate (each label wrong with this probability): the calibrated error rate is corrected for it and its interval widened",
    checks: [
      refuse((r, o) => r !== undefined && !o.labels, '--label-error-rate needs --labels'),
      refuse((r) => r !== undefined && !(Number.isFinite(r as number) && (r as number) >= 0 && (r as number) < 0.5), '--label-error-rate must be a fraction in [0, 0.5)'),
    ],
  },
  out: { type: 'string', describe: 'Write flags.csv, tasks.jsonl, review.csv, lf-stats.json, agent-stats.json, summary.json (and evaluation.json with --labels) here' },
  seed: { type: 'number', default: 1, describe: 'Seed for cross-validation folds', checks: [whole] },
  k: { type: 'number', describe: 'High-confidence examples per class for --decision-plane (default 250 × N/1534)', min: 1 },
  'decision-plane': {
    type: 'boolean',
    default: false,
    describe: 'Let the decision plane (per-agent CART reliability) compete with the label model for the flags; chosen only when it agrees better with held-out agents beyond chance; off by default (docs/commands/audit.md)',
  },
  timeout: { type: 'number', default: 30, describe: 'Per-query time limit in seconds' },
  store: { type: 'string', default: DEFAULT_STORE, describe: 'Run store (SQLite) that makes runs resumable' },
  workers: { type: 'number', describe: 'Most parallel execution processes (default: one per core; more than one start only when the queued work is worth them)' },
  ...scopedOptions(LLM_CALL_OPTIONS, 'LLM agents'),
  ...BATCH,
  batch: { ...BATCH.batch, checks: [...BATCH.batch.checks, refuse((batch, o) => batch === true && (o.llmAgent as string[]).length === 0, '--batch applies to --llm-agent agents; this audit has none')] },
} as const satisfies OptionTable;
