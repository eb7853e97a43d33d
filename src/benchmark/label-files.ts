import { parseIdLabelCsv } from './id-label-csv.js';
import { readItems } from './items.js';
import { readText } from './read-json.js';
import { InputFileError } from '../errors.js';

/** Per-task boolean labels from one file (true = correct / 1, false = wrong / 0). */
export interface LabelSet {
  file: string;
  /** Which column or field the labels came from, for the report. */
  source: string;
  labels: Map<string, boolean>;
  /** Records with no label (JSONL `correct: null`), left out. */
  skipped: number;
  /** CSV only: task id → the requested extra columns' non-empty cells (readLabelFile's `extraColumns`). */
  extras?: Map<string, Record<string, string>>;
}

const ID_COLUMNS = ['task_id', 'query_id', 'taskId'];
const LABEL_COLUMNS = ['label', 'predicted_label', 'correct'];

function parseLabel(raw: string): boolean | undefined {
  const v = raw.toLowerCase();
  if (v === '1' || v === 'true' || v === 'yes') return true;
  if (v === '0' || v === 'false' || v === 'no') return false;
  return undefined;
}

/**
 * CSV labels: the first present of task_id/query_id/taskId joins, the first present of
 * label/predicted_label/correct is the label (SALUS files: 1 = correct, 0 = error).
 */
function readCsvLabels(file: string, text: string, extraColumns: readonly string[]): LabelSet {
  const csv = parseIdLabelCsv(file, text, { idColumns: ID_COLUMNS, labelColumns: LABEL_COLUMNS, parseLabel, labelsHint: '0/1 or true/false', extraColumns });
  return { file, source: `CSV column ${csv.labelColumn}`, labels: csv.labels, skipped: 0, extras: csv.extras };
}

/** JSONL item records; a file holding several systems needs `system` to pick one. */
function readJsonlLabels(file: string, system: string | undefined): LabelSet {
  const records = readItems(file);
  const systems = [...new Set(records.map((r) => r.system))];
  if (system !== undefined && !systems.includes(system)) {
    throw new InputFileError(file, undefined, `no records for system "${system}" (systems: ${systems.join(', ') || 'none'})`);
  }
  if (system === undefined && systems.length > 1) {
    throw new InputFileError(file, undefined, `holds ${systems.length} systems (${systems.join(', ')}); pick one with --system-a/--system-b`);
  }
  const chosen = system ?? systems[0];
  const labels = new Map<string, boolean>();
  let skipped = 0;
  for (const r of records) {
    if (r.system !== chosen) continue;
    if (r.correct === null) {
      skipped++;
      continue;
    }
    if (labels.has(r.taskId)) throw new InputFileError(file, undefined, `task ${r.taskId} appears twice for system "${chosen}"`);
    labels.set(r.taskId, r.correct);
  }
  return { file, source: `JSONL field correct (system ${chosen ?? 'none'})`, labels, skipped };
}

/** Reads a per-item label file: CSV by extension `.csv`, otherwise JSONL item records. */
export function readLabelFile(file: string, opts: { system?: string; extraColumns?: readonly string[] } = {}): LabelSet {
  if (/\.csv$/i.test(file)) return readCsvLabels(file, readText(file), opts.extraColumns ?? []);
  return readJsonlLabels(file, opts.system);
}

export interface JoinedLabels {
  taskIds: string[];
  a: boolean[];
  b: boolean[];
  onlyInA: string[];
  onlyInB: string[];
}

/** Inner join on task id, in A's order; the ids found on one side only are returned too. */
export function joinLabels(a: Map<string, boolean>, b: Map<string, boolean>): JoinedLabels {
  const out: JoinedLabels = { taskIds: [], a: [], b: [], onlyInA: [], onlyInB: [] };
  for (const [id, la] of a) {
    const lb = b.get(id);
    if (lb === undefined) out.onlyInA.push(id);
    else {
      out.taskIds.push(id);
      out.a.push(la);
      out.b.push(lb);
    }
  }
  for (const id of b.keys()) if (!a.has(id)) out.onlyInB.push(id);
  return out;
}
