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
      return `${sql.replace(/\s*\r?\n\s*/g, ' ').trim()}\t${t.dbId}\n`;
    })
    .join('');
}
