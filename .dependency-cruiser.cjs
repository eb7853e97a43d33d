/**
 * The house rules for imports, checked by test/architecture.test.ts (dependency-cruiser).
 * Data flows load → execute → compare/judge → flag → score → stats → report; a module imports
 * only from its own folder, from the folders below it, and from the base (errors, benchmark/, sql/, stats/).
 */
// values/ holds pure value definitions (a result cell, Python's equality of cells) that the Spider
// exact-match code in sql/ shares with the comparators; execution/types.ts is the execution layer's
// result types, which the base may name as types.
const BASE = '^src/(errors\\.ts|benchmark/|sql/|stats/|values/|execution/types\\.ts$)';
/** For each core folder, the folders it may import besides itself and the base. */
const BELOW = {
  store: [],
  execution: ['store'],
  llm: ['store'],
  judge: ['llm', 'execution', 'store'],
  validate: ['judge', 'llm', 'execution', 'store'],
  audit: ['judge', 'llm', 'execution', 'store'],
  report: ['audit', 'validate', 'judge', 'llm', 'execution', 'store'],
};

const layerRules = Object.entries(BELOW).map(([folder, below]) => ({
  name: `layer-${folder}`,
  comment: `src/${folder}/ imports only from itself, ${below.length ? below.join(', ') + ', ' : ''}and the base (errors, benchmark, sql, stats)`,
  severity: 'error',
  from: { path: `^src/${folder}/` },
  to: { path: '^src/', pathNot: [`^src/${folder}/`, BASE, ...below.map((b) => `^src/${b}/`)] },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles: a newcomer can read any module after the ones it imports.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'stats-pure',
      comment: 'src/stats/ is pure statistics: no file, process, network or database access.',
      severity: 'error',
      from: { path: '^src/stats/' },
      to: { path: '^(node:)?(fs|fs/promises|child_process|net|http|https|worker_threads|os)$|^better-sqlite3$' },
    },
    {
      name: 'stats-only-benchmark-types',
      comment: 'src/stats/ may use the benchmark types, never its loaders (they read files).',
      severity: 'error',
      from: { path: '^src/stats/' },
      to: { path: '^src/benchmark/', pathNot: '^src/benchmark/types\\.ts$' },
    },
    {
      name: 'base-below-everything',
      comment: 'benchmark/, sql/ and stats/ are the base: they import nothing above them.',
      severity: 'error',
      from: { path: '^src/(benchmark|sql|stats)/' },
      to: { path: '^src/', pathNot: [BASE] },
    },
    {
      name: 'report-no-cli-libs',
      comment: 'src/report/ builds and renders reports; CLI libraries (yargs, cli-progress) belong to src/commands/.',
      severity: 'error',
      from: { path: '^src/report/' },
      to: { path: '^(yargs|yargs/.*|cli-progress)$' },
    },
    {
      name: 'core-not-cli',
      comment: 'The core never imports the CLI: src/cli.ts and src/commands/ sit on top of it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli\\.ts|commands/)' },
      to: { path: '^src/(cli\\.ts|commands/)' },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Only the dependency's name matters here; resolving into node_modules would only cost time.
    exclude: { path: '^node_modules' },
  },
};
