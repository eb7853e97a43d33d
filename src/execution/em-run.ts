import type { Benchmark, PredictionSet, Task } from '../benchmark/types.js';
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
  /** Results kept from earlier runs (the run store's EmStore). */
  cache?: EmCache;
}

/** Exact-match results kept between runs, by a key of everything a result depends on. */
export interface EmCache {
  /** `context`: the schema and foreign keys, as text. */
  key(context: string, gold: string, prediction: string): string;
  lookup(keys: readonly string[]): Map<string, EmItem>;
  save(items: Map<string, EmItem>): void;
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
  // Each gold is parsed when a prediction of its task is first scored (none on a fully cached run).
  const parsedGolds: Gold[] = [];
  const goldOf = (ti: number): Gold => (parsedGolds[ti] ??= parseGold(bench.tasks[ti]!, inputs));
  // Systems often write the same SQL for a task: score each distinct text once, and only those
  // the cache does not hold.
  const memo = bench.tasks.map(() => new Map<string, EmItem>());
  const texts = systems.map((s) => bench.tasks.map((t) => (s.byTask.has(t.id) ? emPredictionText(s.byTask.get(t.id)!.sql) : undefined)));
  const cache = inputs.cache;
  if (cache) {
    const context = new Map<string, string>();
    const contextOf = (dbId: string): string => {
      let c = context.get(dbId);
      if (c === undefined) {
        const schema = inputs.schemaOf(dbId);
        c = JSON.stringify([[...schema.tables], [...schema.idMap], [...(inputs.foreignKeys.get(dbId) ?? [])]]);
        context.set(dbId, c);
      }
      return c;
    };
    // Each distinct (task, text) is hashed once; tasks with the same gold on the same database share
    // a key, and every one of them gets the kept (or newly scored) result.
    const wanted = new Map<string, [number, string][]>();
    const keyed = bench.tasks.map(() => new Set<string>());
    texts.forEach((row) =>
      row.forEach((text, ti) => {
        if (text === undefined || keyed[ti]!.has(text)) return;
        keyed[ti]!.add(text);
        const key = cache.key(contextOf(bench.tasks[ti]!.dbId), bench.tasks[ti]!.goldSql, text);
        const list = wanted.get(key);
        if (list) list.push([ti, text]);
        else wanted.set(key, [[ti, text]]);
      }),
    );
    const kept = cache.lookup([...wanted.keys()]);
    const fresh = new Map<string, EmItem>();
    for (const [key, uses] of wanted) {
      const [ti, text] = uses[0]!;
      const item = kept.get(key) ?? scoreOne(goldOf(ti), text);
      if (!kept.has(key)) fresh.set(key, item);
      for (const [t, x] of uses) memo[t]!.set(x, item);
    }
    if (fresh.size > 0) cache.save(fresh);
  }
  return texts.map((row) =>
    row.map((text, ti) => {
      if (text === undefined) return undefined;
      const known = memo[ti]!.get(text);
      if (known) return known;
      const item = scoreOne(goldOf(ti), text);
      memo[ti]!.set(text, item);
      return item;
    }),
  );
}

interface Gold {
  schema: SpiderSchema;
  kmap: ForeignKeyMap;
  sql: SpiderSql | undefined;
}

function parseGold(t: Task, inputs: EmInputs): Gold {
  const schema = inputs.schemaOf(t.dbId);
  // A gold the parser rejects cannot be scored by the official code either (it stops there);
  // here such a task scores 0 for every system.
  const kmap = inputs.foreignKeys.get(t.dbId) ?? new Map<string, string>();
  const parsed = tryParseSpiderSql(schema, t.goldSql.trim());
  // Rebuilt once: the comparison reads the gold without changing it.
  return { schema, kmap, sql: parsed && rebuildSpiderSql(parsed, schema, kmap) };
}

function scoreOne(g: Gold, text: string): EmItem {
  const parsed = tryParseSpiderSql(g.schema, text);
  if (!g.sql) return { em: 0, partial: exactMatch(emptySpiderSql(), emptySpiderSql()).partial, predParsed: parsed !== undefined };
  const pred = rebuildSpiderSql(parsed ?? emptySpiderSql(), g.schema, g.kmap);
  const r = exactMatch(pred, g.sql);
  return { em: r.exact ? 1 : 0, partial: r.partial, predParsed: parsed !== undefined };
}
