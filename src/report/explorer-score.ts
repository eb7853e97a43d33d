import type { Benchmark, ItemRecord } from '../benchmark/types.js';
import type { RunPreviews } from '../execution/run-previews.js';
import { PreviewTable, type ExplorerData, type ExplorerItem, type ExplorerTask } from './explorer-model.js';

/** What every explorer needs of a run: the tasks, each system's SQL, and one verdict line per (system, task). */
export interface ExplorerInputs {
  bench: Benchmark;
  /** System names in page order, with each one's SQL by task id. */
  systems: { name: string; sql: (taskId: string) => string | undefined }[];
  items: readonly ItemRecord[];
  previews?: RunPreviews;
  /** Tasks flagged as wrong gold (score --flags). */
  flags?: Map<string, boolean>;
  /** Review scores from an audit's flags file (its `score` column), shown with the rank they give. */
  reviewScores?: Map<string, number>;
}

/** Review ranks from review scores: 1 = the highest score; tied tasks share the best place, as the audit ranks them. */
function ranksOf(scores: Map<string, number>): Map<string, number> {
  const sorted = [...scores.values()].sort((a, b) => b - a);
  const firstAt = new Map<number, number>();
  sorted.forEach((v, i) => firstAt.has(v) || firstAt.set(v, i + 1));
  return new Map([...scores].map(([id, v]) => [id, firstAt.get(v)!]));
}

/** Per-item metric fields of `score --items` lines, and the names the page shows them by. */
const ITEM_METRICS: [field: string, label: string][] = [
  ['softF1', 'Soft-F1'],
  ['em', 'EM'],
  ['ves', 'VES'],
  ['rVes', 'R-VES'],
];

function itemMetrics(it: ItemRecord): Record<string, number> | undefined {
  const found = ITEM_METRICS.flatMap(([field, label]) => {
    const v = it[field];
    return typeof v === 'number' ? [[label, v] as const] : typeof v === 'boolean' ? [[label, v ? 1 : 0] as const] : [];
  });
  return found.length > 0 ? Object.fromEntries(found) : undefined;
}

/** Item fields shared by score and judge lines. */
function baseItem(it: ItemRecord, sql: string | undefined, preview: number | undefined): ExplorerItem {
  return {
    ...(sql !== undefined ? { sql } : { m: 1 as const }),
    v: it.correct === null ? null : it.correct ? 1 : 0,
    ...(it.predError !== undefined ? { e: it.predError } : {}),
    ...(preview !== undefined ? { p: preview } : {}),
    ...(itemMetrics(it) ? { mx: itemMetrics(it)! } : {}),
  };
}

/**
 * The explorer's tasks from verdict lines: one entry per task, each system's item beside the others.
 * `extra` adds command-specific fields to an item (the judge's labels).
 */
export function explorerTasks(
  inp: ExplorerInputs,
  table: PreviewTable,
  extra: (it: ItemRecord) => Partial<ExplorerItem> = () => ({}),
): ExplorerTask[] {
  const bySystem = new Map(inp.systems.map((s, i) => [s.name, i]));
  const ranks = inp.reviewScores ? ranksOf(inp.reviewScores) : undefined;
  const items = new Map<string, ItemRecord>();
  for (const it of inp.items) items.set(`${bySystem.get(it.system)}\n${it.taskId}`, it);
  return inp.bench.tasks.map((t, ti) => {
    const first = inp.systems.map((_, si) => items.get(`${si}\n${t.id}`)).find((x) => x);
    const gp = table.add(inp.previews?.gold[ti]);
    const flagged = inp.flags?.get(t.id);
    return {
      id: t.id,
      db: t.dbId,
      ...(typeof first?.difficulty === 'string' ? { d: first.difficulty } : t.difficulty ? { d: t.difficulty } : {}),
      q: t.question,
      ...(t.evidence ? { ev: t.evidence } : {}),
      gold: t.goldSql,
      ...(gp !== undefined ? { gp } : {}),
      ...(first?.goldError !== undefined ? { ge: first.goldError } : {}),
      ...(flagged !== undefined ? { fl: flagged } : {}),
      ...(inp.reviewScores?.has(t.id) ? { rs: inp.reviewScores.get(t.id)!, rk: ranks!.get(t.id)! } : {}),
      s: inp.systems.map((s, si) => {
        const it = items.get(`${si}\n${t.id}`);
        if (!it) return null;
        return { ...baseItem(it, s.sql(t.id), table.add(inp.previews?.pred[si]?.[ti])), ...extra(it) };
      }),
    };
  });
}

/** `score --html`: EX verdicts of the comparator that scored them. */
export function scoreExplorer(inp: ExplorerInputs, comparator: string): ExplorerData {
  const table = new PreviewTable();
  const tasks = explorerTasks(inp, table);
  return { kind: 'score', verdictLabel: `EX (${comparator} comparator)`, systems: inp.systems.map((s) => s.name), previews: table.list, tasks, order: 'task' };
}
