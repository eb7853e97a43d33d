import type { ItemRecord } from '../benchmark/types.js';
import { PreviewTable, type ExplorerData, type ExplorerItem } from './explorer-model.js';
import { explorerTasks, type ExplorerInputs } from './explorer-score.js';

/** The judge's own fields of an item: its labels, route, plain EX and the reason that decided it. */
function judgeFields(it: ItemRecord): Partial<ExplorerItem> {
  const reason = it.refuterReason ?? it.proverReason ?? it.unscored;
  return {
    ...(it.goldX === true ? { gx: 1 as const } : {}),
    ...(it.ambQ === true ? { aq: 1 as const } : {}),
    ...(typeof it.route === 'string' ? { rt: it.route } : {}),
    ...(typeof it.ex === 'boolean' ? { ex: it.ex ? (1 as const) : (0 as const) } : {}),
    ...(typeof reason === 'string' ? { why: reason } : {}),
  };
}

/** `judge --html`: the judge's verdicts with its GoldX/AmbQ labels, EX beside them. */
export function judgeExplorer(inp: ExplorerInputs, judge: string): ExplorerData {
  const table = new PreviewTable();
  const tasks = explorerTasks(inp, table, judgeFields);
  return { kind: 'judge', verdictLabel: `judge ${judge}`, systems: inp.systems.map((s) => s.name), previews: table.list, tasks, order: 'task' };
}
