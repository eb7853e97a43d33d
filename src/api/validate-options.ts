import { PROVIDER_NAMES } from '../llm/providers/types.js';
import { DEFAULT_STORE } from '../store/default-store.js';
import { BATCH_OPTIONS, LLM_CALL_OPTIONS } from './llm-options.js';
import { scopedOptions, type OptionTable } from './option-table.js';
import { refuse, whole } from './option-checks.js';

const BATCH = scopedOptions(BATCH_OPTIONS, 'Live judge');

/** `sqlboard validate`'s options: the CLI's flags and the library's options object (camelCase) come from here. */
export const VALIDATE_OPTIONS = {
  set: { type: 'string', array: true, demandOption: true, describe: 'Validation set: ROSE-VEC .json or sqlboard .jsonl (repeatable)' },
  judge: {
    type: 'string',
    array: true,
    describe: 'NAME=SOURCE[,SOURCE...]: verdict JSONL files or ROSE output directories (repeatable)',
    checks: [refuse((judges, o) => ((judges as string[] | undefined) ?? []).length === 0 && !o.provider, 'name at least one --judge NAME=SOURCE (or a live judge with --provider)')],
  },
  ensemble: { type: 'string', array: true, describe: 'majority:a,b,c | unanimity:a,b,c | and:a,b | or:a,b (repeatable)' },
  repeats: { type: 'string', array: true, describe: 'a,b,c: judges that are repeat runs of one configuration; reports their spread' },
  baseline: { type: 'string', describe: 'Judge or ensemble the others must beat on κ, accuracy, MCC and F1' },
  seed: { type: 'number', default: 42, describe: 'Bootstrap seed', checks: [whole] },
  iterations: { type: 'number', default: 2000, describe: 'Bootstrap resamples', min: 1 },
  provider: {
    choices: PROVIDER_NAMES,
    describe: 'Also run a live judge over the items: openai, gemini or replay',
    checks: [refuse((provider, o) => provider !== undefined && (!o.model || !o.dbRoot), "--provider needs --model and --db-root (the databases of the sets' items)")],
  },
  model: { type: 'string', describe: 'Live judge model id' },
  'db-root': { type: 'string', describe: 'Live judge: directory holding <db_id>/<db_id>.sqlite' },
  'live-name': { type: 'string', describe: 'Live judge name (default <model>-<snapshot date>)' },
  store: { type: 'string', default: DEFAULT_STORE, describe: 'Run store (live judge cache and verdicts)' },
  ...scopedOptions(LLM_CALL_OPTIONS, 'Live judge'),
  ...BATCH,
  batch: { ...BATCH.batch, checks: [refuse((batch, o) => batch === true && !o.provider, '--batch applies to a live judge (--provider); recorded judges are only read'), ...BATCH.batch.checks] },
} as const satisfies OptionTable;
