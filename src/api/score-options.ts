import { DEFAULT_MAX_RESULT_BYTES, MAX_RESULT_BYTES } from '../execution/result-limits.js';
import { DEFAULT_MAX_MEMORY_MB } from '../execution/worker-count.js';
import { DEFAULT_STORE } from '../store/default-store.js';
import type { OptionTable } from './option-table.js';
import { REPAIR_OPTIONS } from './shared-options.js';

/** `sqlboard score`'s options: the CLI's flags and the library's options object (camelCase) come from here. */
export const SCORE_OPTIONS = {
  ...REPAIR_OPTIONS,
  questions: { type: 'string', describe: 'Questions file, BIRD or Spider format (default: bundled Spider dev)' },
  'db-root': { type: 'string', describe: 'Directory holding <db_id>/<db_id>.sqlite' },
  system: { type: 'string', array: true, describe: 'NAME=FILE predictions (repeatable; default: the bundled systems)' },
  comparator: { type: 'string', choices: ['bird', 'spider'], describe: 'Official comparator (default: bird for BIRD questions, spider for Spider)' },
  timeout: { type: 'number', default: 30, describe: 'Per-query time limit in seconds' },
  'max-rows': { type: 'number', default: 1_000_000, describe: 'Larger results are an execution error' },
  'max-result-bytes': {
    type: 'number',
    default: DEFAULT_MAX_RESULT_BYTES,
    describe: `Larger results are an execution error (a character or blob byte counts 1, a cell 8 more; at most ${MAX_RESULT_BYTES})`,
  },
  'max-memory-mb': { type: 'number', default: DEFAULT_MAX_MEMORY_MB, describe: 'Memory cap per execution process (MiB); a query past it is an execution error' },
  'keep-distinct': { type: 'boolean', default: false, describe: 'spider comparator: keep DISTINCT (test-suite --keep_distinct)' },
  store: { type: 'string', default: DEFAULT_STORE, describe: 'Run store (SQLite) that makes runs resumable' },
  items: { type: 'string', describe: 'Write one JSON line per (system, task) to this file' },
  flags: {
    type: 'string',
    describe: 'Gold-error flags CSV (task_id,predicted_label; 0 = wrong gold): adds accuracy on the clean subset (default with the bundled data: its audit flags)',
  },
  workers: { type: 'number', describe: 'Most parallel execution processes (default: one per core; more than one start only when the queued work is worth them)' },
  db: { type: 'string', array: true, describe: 'Score only the tasks of these databases: NAME,… (db_ids, comma-separated or repeated)' },
  'skip-missing-db': { type: 'boolean', default: false, describe: 'Score the tasks whose database can be used and list the skipped ones (exit 3), instead of stopping' },
  by: { type: 'string', choices: ['db'], describe: 'Also break the scores down per database (table, --json byDb, CSV, Markdown, HTML)' },
  metric: {
    type: 'string',
    array: true,
    describe: 'Metrics, comma-separated: ex, soft-f1, em, ves, r-ves (default: ex,soft-f1 for BIRD questions, ex,em for Spider; ves and r-ves are slow, opt-in)',
  },
  'sqlite-compat': {
    type: 'string',
    describe: "Refuse the SQL functions this SQLite has beyond an older one's, with its error (3.40: the official evaluators' 3.40.1; docs/sqlite.md)",
  },
  tables: { type: 'string', describe: "Spider tables.json for em's foreign-key maps (default: tables.json beside the questions)" },
  'ves-reps': { type: 'number', default: 100, describe: 'ves / r-ves: timed executions of each query (official: 100)' },
} as const satisfies OptionTable;
