import type { Benchmark, PredictionSet } from './types.js';

/**
 * A prediction set as Spider's text format — one `SQL\tdb_id` line per task, in the
 * questions' order — so `sqlboard score` (or Spider's evaluation) reads it back. Newlines
 * inside SQL become spaces. A task without a prediction gets an empty SQL before its db_id:
 * the line keeps the file aligned, and the format has no other way to say "missing".
 */
export function formatSpiderText(bench: Benchmark, set: PredictionSet): string {
  return bench.tasks
    .map((t) => {
      const sql = set.byTask.get(t.id)?.sql ?? '';
      return `${oneLine(sql)}\t${t.dbId}\n`;
    })
    .join('');
}

/**
 * Each run of whitespace holding a line break becomes one space, then the ends are trimmed: what
 * replacing every match of `\s*\r?\n\s*` with a space did, without that pattern's retries at every
 * position of a long run with no line break (quadratic).
 */
function oneLine(sql: string): string {
  return sql.replace(/\s+/g, (run) => (run.includes('\n') ? ' ' : run)).trim();
}
