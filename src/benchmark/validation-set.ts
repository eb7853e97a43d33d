import { basename, extname } from 'node:path';
import { InputFileError } from '../errors.js';
import { arrayElementLines, parseJsonLines, parseJsonText, readText } from './read-json.js';
import { HUMAN_TAG_NAMES, parseHumanTags, tagsFromNames, type HumanTags } from './human-tags.js';

/**
 * Judge validation sets: (question, gold SQL, predicted SQL) with a human verdict on the
 * prediction. Two formats:
 * - ROSE-VEC (`.json`): an array of {question_id, db_id, question, evidence?, gold_sql,
 *   predicted_sql, label, reason_1?, reason_2?}; BIRD's reasons carry human tags.
 * - ours (`.jsonl`): one object per line, documented in validation-sets/README.md.
 * The subset is the file's base name, so ROSE-VEC-BIRD and -Spider, whose question ids
 * overlap, stay apart: items are keyed by (subset, taskId).
 */
export interface ValidationItem {
  subset: string;
  taskId: string;
  dbId: string;
  question: string;
  evidence: string;
  goldSql: string;
  predictedSql: string;
  /** The human verdict: the prediction answers the question. */
  label: boolean;
  /** Human diagnostic tags; absent when the set has none for this item. */
  tags?: HumanTags;
}

export interface ValidationSet {
  /** Default subset name: the file's base name without extension. */
  name: string;
  file: string;
  format: 'rose-vec' | 'jsonl';
  items: ValidationItem[];
}

/** The join key of an item; subsets may repeat ids, so both parts are needed. */
export function itemKey(subset: string, taskId: string): string {
  return `${subset}\u0000${taskId}`;
}

function subsetName(file: string): string {
  return basename(file, extname(file));
}

const optStr = (v: unknown): string => (typeof v === 'string' ? v : '');

function idOf(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string' && v.trim() !== '') return v.trim();
  return undefined;
}

/** Both formats share ROSE-VEC's snake_case field names for the item itself. */
function itemOf(o: Record<string, unknown>, subset: string, taskId: string, label: boolean): ValidationItem {
  return {
    subset,
    taskId,
    dbId: optStr(o.db_id),
    question: optStr(o.question),
    evidence: optStr(o.evidence),
    goldSql: optStr(o.gold_sql),
    predictedSql: optStr(o.predicted_sql),
    label,
  };
}

function loadRoseVec(file: string, text: string, name: string): { item: ValidationItem; line: number | undefined }[] {
  const data = parseJsonText(file, text);
  if (!Array.isArray(data)) throw new InputFileError(file, undefined, 'expected a JSON array of ROSE-VEC items');
  const lines = arrayElementLines(text);
  return data.map((raw, i) => ({ item: roseVecItem(file, raw, i, name), line: lines[i] }));
}

function roseVecItem(file: string, raw: unknown, i: number, name: string): ValidationItem {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new InputFileError(file, undefined, `item ${i} is not a JSON object`);
  const o = raw as Record<string, unknown>;
  const taskId = idOf(o.question_id);
  if (taskId === undefined) throw new InputFileError(file, undefined, `item ${i} has no "question_id"`);
  if (typeof o.label !== 'boolean') {
    throw new InputFileError(file, undefined, `item ${i} (question_id ${taskId}): "label" must be true or false, got ${JSON.stringify(o.label)}`);
  }
  const item = itemOf(o, name, taskId, o.label);
  // Only BIRD items carry the annotators' reasons; their absence means "not tagged", not "no tag".
  if ('reason_1' in o || 'reason_2' in o) item.tags = parseHumanTags(optStr(o.reason_1), optStr(o.reason_2));
  return item;
}

function loadJsonl(file: string, text: string, name: string): { item: ValidationItem; line: number | undefined }[] {
  return parseJsonLines(file, text, 'validation item').map(({ value: o, line }) => ({ item: jsonlItem(file, o, line, name), line }));
}

function jsonlItem(file: string, o: Record<string, unknown>, line: number, name: string): ValidationItem {
  const taskId = idOf(o.id ?? o.question_id);
  if (taskId === undefined) throw new InputFileError(file, line, 'missing "id" (string or number)');
  if (typeof o.label !== 'boolean') throw new InputFileError(file, line, `"label" must be true or false, got ${JSON.stringify(o.label)}`);
  if (o.subset !== undefined && (typeof o.subset !== 'string' || o.subset === '')) {
    throw new InputFileError(file, line, '"subset" must be a non-empty string');
  }
  const item = itemOf(o, (o.subset as string | undefined) ?? name, taskId, o.label);
  if (o.tags !== undefined) {
    if (!Array.isArray(o.tags) || !o.tags.every((t) => typeof t === 'string')) {
      throw new InputFileError(file, line, `"tags" must be an array of strings (${HUMAN_TAG_NAMES.join(', ')})`);
    }
    const { tags, unknown } = tagsFromNames(o.tags as string[]);
    if (unknown.length > 0) throw new InputFileError(file, line, `unknown tag ${JSON.stringify(unknown[0])} (known: ${HUMAN_TAG_NAMES.join(', ')})`);
    item.tags = tags;
  }
  return item;
}

/** Loads one validation set; the format follows the extension (`.jsonl` = ours, else ROSE-VEC). */
export function loadValidationSet(file: string): ValidationSet {
  const text = readText(file);
  const name = subsetName(file);
  const jsonl = extname(file).toLowerCase() === '.jsonl';
  const read = jsonl ? loadJsonl(file, text, name) : loadRoseVec(file, text, name);
  const seen = new Map<string, number | undefined>();
  for (const { item: it, line } of read) {
    const k = itemKey(it.subset, it.taskId);
    if (seen.has(k)) {
      throw new InputFileError(file, line, `item id ${it.taskId} appears twice in subset ${it.subset} (lines ${seen.get(k) ?? '?'} and ${line ?? '?'})`);
    }
    seen.set(k, line);
  }
  const items = read.map((r) => r.item);
  if (items.length === 0) throw new InputFileError(file, undefined, 'holds no items');
  return { name, file, format: jsonl ? 'jsonl' : 'rose-vec', items };
}

/** Loads several sets; two files with the same base name would merge their subsets, so that is refused. */
export function loadValidationSets(files: readonly string[]): ValidationSet[] {
  const sets = files.map(loadValidationSet);
  const keys = new Map<string, string>();
  for (const s of sets) {
    for (const it of s.items) {
      const k = itemKey(it.subset, it.taskId);
      const other = keys.get(k);
      if (other !== undefined) {
        throw new InputFileError(s.file, undefined, `item ${it.subset}/${it.taskId} is also in ${other}; subsets of different sets must not overlap (rename one file)`);
      }
      keys.set(k, s.file);
    }
  }
  return sets;
}
