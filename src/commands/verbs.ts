/**
 * Each CLI verb's usage and one-line description, apart from the command modules: `sqlboard --help`
 * lists every verb without loading any of them (and the libraries they import).
 */
export const VERBS = {
  score: {
    command: 'score',
    describe: 'Execution accuracy as the official BIRD / Spider evaluators compute it (default: the bundled Spider dev set and systems)',
  },
  judge: {
    command: 'judge',
    describe: 'ROSE-style LLM judge (Prover + Adversarial Refuter) over every (system, task): judge accuracy, GoldX, AmbQ, cost',
  },
  audit: {
    command: 'audit',
    describe: 'Flag wrong gold SQL by weak supervision over several agents\' SQL (SALUS-style, label-free)',
  },
  leaderboard: {
    command: 'leaderboard [files..]',
    describe: 'Rank systems with intervals and significance, from per-item verdicts or a published board (--board)',
  },
  stats: {
    command: 'stats',
    describe: 'Noise-aware statistics: gap threshold, calibrated prevalence, detector metrics, intervals, agreement',
  },
  import: {
    command: 'import',
    describe: 'Import verdicts recorded by other tools',
  },
  validate: {
    command: 'validate',
    describe: 'Compare judges with human labels on validation sets (κ, accuracy, MCC, F1 with CIs; pairs, ensembles, upgrade rule)',
  },
  batch: {
    command: 'batch <command>',
    describe: 'Provider batches of judge and audit runs (--batch): `batch status` lists them',
  },
} as const;

export type VerbName = keyof typeof VERBS;
