import type { Benchmark, PredictionSet } from '../benchmark/types.js';
import { emptySpiderSql, tryParseSpiderSql, type SpiderSchema, type SpiderSql } from '../sql/spider-parse.js';
import { exactMatch, rebuildSpiderSql, type ForeignKeyMap, type PartialScores } from '../sql/spider-exact.js';

export interface EmItem {
  /** 1 when the exact set match holds. */
  em: 0 | 1;
  partial: PartialScores;
  /** False: the official parser rejects the prediction, and the empty query was scored. */
  predParsed: boolean;
}

export interface EmInputs {
  /** The schema the official code reads from `<db_id>/<db_id>.sqlite`. */
  schemaOf: (dbId: string) => SpiderSchema;
  /** Foreign-key maps from tables.json, by db_id (a database without one maps nothing). */
  foreignKeys: Map<string, ForeignKeyMap>;
}

/** The SQL text evaluation.py scores: stripped, before the first TAB, every `value` read as `1`. */
export function emPredictionText(sql: string): string {
  return sql.trim().split('\t')[0]!.replace(/value/g, '1');
}

/**
 * Spider's exact set match for every (system, task), as evaluation.py's `match` mode: the gold
 * is parsed once per task; a prediction the official parser rejects is scored as the empty query.
 * Returns, per system, per task (in the benchmark's order), the item's result (undefined: no prediction).
 */
export function runExactMatch(bench: Benchmark, systems: PredictionSet[], inputs: EmInputs): (EmItem | undefined)[][] {
  const golds = bench.tasks.map((t) => {
    const schema = inputs.schemaOf(t.dbId);
    // A gold the parser rejects cannot be scored by the official code either (it stops there);
    // here such a task scores 0 for every system.
    const kmap = inputs.foreignKeys.get(t.dbId) ?? new Map<string, string>();
    const parsed = tryParseSpiderSql(schema, t.goldSql.trim());
    // Rebuilt once: the comparison reads the gold without changing it.
    return { schema, kmap, sql: parsed && rebuildSpiderSql(parsed, schema, kmap) };
  });
  // Systems often write the same SQL for a task: score each distinct text once.
  const memo = bench.tasks.map(() => new Map<string, EmItem>());
  return systems.map((s) =>
    bench.tasks.map((t, ti) => {
      const p = s.byTask.get(t.id);
      if (!p) return undefined;
      const text = emPredictionText(p.sql);
      const known = memo[ti]!.get(text);
      if (known) return known;
      const item = scoreOne(golds[ti]!, text);
      memo[ti]!.set(text, item);
      return item;
    }),
  );
}

function scoreOne(g: { schema: SpiderSchema; kmap: ForeignKeyMap; sql: SpiderSql | undefined }, text: string): EmItem {
  const parsed = tryParseSpiderSql(g.schema, text);
  if (!g.sql) return { em: 0, partial: exactMatch(emptySpiderSql(), emptySpiderSql()).partial, predParsed: parsed !== undefined };
  const pred = rebuildSpiderSql(parsed ?? emptySpiderSql(), g.schema, g.kmap);
  const r = exactMatch(pred, g.sql);
  return { em: r.exact ? 1 : 0, partial: r.partial, predParsed: parsed !== undefined };
}
