import { extname } from 'node:path';
import { InputFileError } from '../errors.js';
import { cellsByName, CsvSyntaxError, parseCsvRows, type CsvRow } from './csv-rows.js';
import { arrayElementLines, objectKeyLines, parseJsonLines, parseJsonText, readText } from './read-json.js';
import { oddStart, OddStarts, repairNotes, restoreSelect, type RepairCounts, type RepairName } from './repairs.js';
import type { Benchmark, Prediction, PredictionSet } from './types.js';

export interface LoadOptions {
  /** Opt-in repairs (src/benchmark/repairs.ts); by default the text is taken as the official readers take it. */
  repairs?: Iterable<RepairName>;
  /**
   * The tasks that will be scored (score's --skip-missing-db, --db): the notes count only their
   * predictions. Default: every task.
   */
  counted?: ReadonlySet<string>;
}

/**
 * Loads one system's predictions in any of the formats seen in the wild and lines them up
 * with the benchmark's tasks:
 * - BIRD's official JSON `{"0": "SQL\t----- bird -----\tdb_id", ...}` (keys are positions);
 * - Spider's text, one SQL per line with an optional `\tdb_id` (CRLF, leading spaces and a
 *   missing final newline are tolerated; the SQL is the text before the first TAB, as the
 *   official readers take it);
 * - JSON arrays or JSONL of records with `question_id` + `predicted_sql` (or `prediction`,
 *   `Prediction`, `result`, `sql`);
 * - CSV with a header naming the SQL column (e.g. `PREDICTED SQL`).
 * Misalignment (count, ids, db ids) and non-string SQL are errors naming the file and line.
 * Nothing is repaired unless `opts.repairs` asks; what a repair changed (or would change) is
 * in the set's notes, its counts in `repairs`.
 */
export function loadPredictions(file: string, bench: Benchmark, system: string, opts: LoadOptions = {}): PredictionSet {
  const on = new Set(opts.repairs ?? []);
  const text = readText(file);
  const trimmed = text.trimStart();
  const knownDbs = new Set(bench.tasks.map((t) => t.dbId));
  const set: PredictionSet = { system, file, byTask: new Map(), notes: [] };
  const tabsInSql = new Set<string>();
  if (extname(file).toLowerCase() === '.csv' || looksLikeCsvHeader(text)) {
    set.format = 'csv';
    loadCsv(file, text, bench, set);
  } else if (trimmed.startsWith('[')) {
    set.format = 'json-records';
    const data = parseJsonText(file, text);
    if (!Array.isArray(data)) throw new InputFileError(file, 1, 'expected a JSON array');
    const lines = arrayElementLines(text);
    loadRecords(file, data, (i) => lines[i], bench, set);
  } else if (trimmed.startsWith('{')) {
    let whole: unknown;
    try {
      whole = JSON.parse(text);
    } catch {
      whole = undefined;
    }
    if (whole !== undefined && typeof whole === 'object' && whole !== null && !Array.isArray(whole) && !isRecordLike(whole)) {
      set.format = 'bird-json';
      loadBirdJson(file, text, whole as Record<string, unknown>, bench, set);
    } else {
      set.format = 'jsonl';
      const lines = parseJsonLines(file, text, 'prediction record', recordFields);
      loadRecords(file, lines.map((l) => l.value), (i) => lines[i]?.line, bench, set);
    }
  } else {
    set.format = 'spider-text';
    loadSpiderText(file, text, bench, knownDbs, set, on.has('keep-tabs'), tabsInSql);
  }
  const dbOf = new Map(bench.tasks.map((t) => [t.id, t.dbId]));
  for (const p of set.byTask.values()) checkDb(file, bench, dbOf, p);
  const counted = (taskId: string): boolean => opts.counted === undefined || opts.counted.has(taskId);
  const starts = new OddStarts();
  for (const p of set.byTask.values()) {
    const kind = oddStart(p.sql);
    if (kind === undefined) continue;
    if (counted(p.taskId)) starts.add(kind, p);
    if (kind !== 'empty' && on.has('restore-select')) p.sql = restoreSelect(p.sql);
  }
  const tabs = [...tabsInSql].filter(counted).length;
  const applied: RepairCounts = {};
  if (on.has('restore-select')) applied['restore-select'] = starts.selectless();
  if (on.has('keep-tabs')) applied['keep-tabs'] = tabs;
  set.repairs = applied;
  set.notes!.push(...repairNotes(applied, starts, tabs));
  return set;
}

/** Trims what SQLite itself skips as whitespace (not \v, not U+00A0: SQLite rejects those). */
function trimSqlSpace(sql: string): string {
  // By character codes: a regular expression's `[…]+$` alternative was tried at every position of every prediction.
  let start = 0;
  let end = sql.length;
  while (start < end && isSqlSpace(sql.charCodeAt(start))) start++;
  while (end > start && isSqlSpace(sql.charCodeAt(end - 1))) end--;
  return start === 0 && end === sql.length ? sql : sql.slice(start, end);
}

/** Space, TAB, LF, FF, CR. */
function isSqlSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

const SQL_FIELDS = ['predicted_sql', 'pred_sql', 'prediction', 'Prediction', 'predicted', 'pred', 'result', 'sql', 'SQL'];

/** The field a record's SQL is read from: the first of SQL_FIELDS it has, `SQL` last. */
function sqlField(r: Record<string, unknown>): string | undefined {
  return SQL_FIELDS.find((f) => f in r && f !== 'SQL') ?? ('SQL' in r ? 'SQL' : undefined);
}

/**
 * What loadRecords reads of a JSONL record: its question_id, db_id and SQL field. A line may carry
 * much more (StructGPT's carry Spider's tokens and parse tree, 2.9 MB in all): kept whole, every
 * line's objects lived until the last line was read, and the garbage collector copied them all.
 */
function recordFields(r: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if ('question_id' in r) out.question_id = r.question_id;
  if ('db_id' in r) out.db_id = r.db_id;
  const field = sqlField(r);
  if (field !== undefined) out[field] = r[field];
  return out;
}

function isRecordLike(o: object): boolean {
  return SQL_FIELDS.some((f) => f in o) || 'question_id' in o;
}

function looksLikeCsvHeader(text: string): boolean {
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  return /,/.test(first) && /\bsql\b/i.test(first) && !/\bselect\b/i.test(first);
}

function loadRecords(
  file: string,
  data: unknown[],
  lineOf: (i: number) => number | undefined,
  bench: Benchmark,
  set: PredictionSet,
): void {
  const byId = new Map(bench.tasks.map((t) => [t.id, t]));
  const hasIds = data.length > 0 && data.every((r) => typeof r === 'object' && r !== null && 'question_id' in r);
  if (!hasIds && data.length !== bench.tasks.length) {
    throw new InputFileError(
      file,
      undefined,
      `${data.length} records without question_id, but the questions file ${bench.source} has ${bench.tasks.length}: records must line up one per question, in order`,
    );
  }
  data.forEach((raw, i) => {
    const line = lineOf(i);
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new InputFileError(file, line, `record ${i} is not an object`);
    const r = raw as Record<string, unknown>;
    const field = sqlField(r);
    if (!field) throw new InputFileError(file, line, `record ${i} has no SQL field (one of ${SQL_FIELDS.join(', ')})`);
    const value = r[field];
    if (typeof value !== 'string') throw new InputFileError(file, line, `record ${i}: "${field}" must be a string, got ${value === null ? 'null' : typeof value}`);
    let task;
    if (hasIds) {
      const id = String(r.question_id);
      task = byId.get(id);
      if (!task) throw new InputFileError(file, line, `question_id ${id} is not in the questions file ${bench.source}`);
    } else {
      task = bench.tasks[i]!;
    }
    const earlier = set.byTask.get(task.id);
    if (earlier) throw new InputFileError(file, line, `a second prediction for question ${task.id} (the first is on line ${earlier.line ?? '?'})`);
    set.byTask.set(task.id, {
      taskId: task.id,
      sql: value,
      ...(typeof r.db_id === 'string' ? { dbId: r.db_id } : {}),
      ...(line !== undefined ? { line } : {}),
    });
  });
}

const BIRD_SEPARATOR = '\t----- bird -----\t';

function loadBirdJson(file: string, text: string, obj: Record<string, unknown>, bench: Benchmark, set: PredictionSet): void {
  // Every top-level key's lines, from one pass: JSON.parse keeps the last of two equal keys, so a
  // repeated position would silently replace a prediction.
  const keyLines = objectKeyLines(text);
  for (const [key, at] of keyLines) {
    if (at.length > 1) throw new InputFileError(file, at[1], `key "${key}" appears twice (lines ${at[0]} and ${at[1]}): which prediction counts?`);
  }
  const lineOfKey = (key: string): number | undefined => keyLines.get(key)?.[0];
  for (const [key, value] of Object.entries(obj)) {
    if (!/^\d+$/.test(key) || Number(key) >= bench.tasks.length) {
      throw new InputFileError(
        file,
        lineOfKey(key),
        `key "${key}" is not a question position 0..${bench.tasks.length - 1} of ${bench.source}`,
      );
    }
    if (typeof value !== 'string') throw new InputFileError(file, lineOfKey(key), `prediction "${key}" must be a string`);
    const task = bench.tasks[Number(key)]!;
    const cut = value.lastIndexOf(BIRD_SEPARATOR);
    const sql = cut >= 0 ? value.slice(0, cut) : value;
    const dbId = cut >= 0 ? value.slice(cut + BIRD_SEPARATOR.length).trim() : undefined;
    const line = lineOfKey(key);
    set.byTask.set(task.id, { taskId: task.id, sql, ...(dbId ? { dbId } : {}), ...(line !== undefined ? { line } : {}) });
  }
}

/**
 * Spider text: lines split as Python's text mode splits them (\n, \r\n or \r), the SQL being the
 * text before the first TAB, as both official drivers read it. With keepTabs, TABs inside the
 * SQL stay: the SQL runs up to the last TAB followed by a known db_id (or to the line's end).
 */
function loadSpiderText(
  file: string,
  text: string,
  bench: Benchmark,
  knownDbs: Set<string>,
  set: PredictionSet,
  keepTabs: boolean,
  tabsInSql: Set<string>,
): void {
  const lines = text.split(/\r\n|\r|\n/);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  if (lines.length !== bench.tasks.length) {
    throw new InputFileError(
      file,
      Math.min(lines.length, bench.tasks.length) + 1,
      `${lines.length} prediction lines, but the questions file ${bench.source} has ${bench.tasks.length} questions: the files must line up one line per question`,
    );
  }
  lines.forEach((raw, i) => {
    const task = bench.tasks[i]!;
    // Most lines hold no TAB: the line is the SQL (as split below would find), with no array to build.
    if (!raw.includes('\t')) {
      set.byTask.set(task.id, { taskId: task.id, sql: trimSqlSpace(raw), line: i + 1 });
      return;
    }
    const fields = raw.split('\t');
    const last = fields.length > 1 ? fields[fields.length - 1]!.trim() : undefined;
    const dbId = last !== undefined && knownDbs.has(last) ? last : undefined;
    // A TAB inside the SQL: more fields than SQL and db_id.
    const sqlFields = dbId !== undefined ? fields.length - 1 : fields.length;
    if (sqlFields > 1) tabsInSql.add(task.id);
    const sql = keepTabs ? fields.slice(0, sqlFields).join('\t') : fields[0]!;
    const prediction: Prediction = { taskId: task.id, sql: trimSqlSpace(sql) };
    if (dbId) prediction.dbId = dbId;
    prediction.line = i + 1;
    set.byTask.set(task.id, prediction);
  });
}

function loadCsv(file: string, text: string, bench: Benchmark, set: PredictionSet): void {
  let parsed: CsvRow[];
  try {
    parsed = parseCsvRows(text);
  } catch (e) {
    if (!(e instanceof CsvSyntaxError)) throw e;
    throw new InputFileError(file, e.line, `malformed CSV (${e.message})`);
  }
  const names = parsed[0]?.cells ?? [];
  const rows = parsed.slice(1).map((r) => cellsByName(names, r));
  // The line a record ends on (a quoted SQL may span several).
  const rowLines = parsed.slice(1).map((r) => r.endLine);
  const header = rows.length > 0 ? names : [];
  const norm = (s: string): string => s.toLowerCase().replace(/[^a-z]/g, '');
  const sqlCol =
    header.find((h) => ['predictedsql', 'predsql', 'prediction', 'predicted', 'pred'].includes(norm(h))) ??
    header.find((h) => norm(h) === 'sql');
  if (!sqlCol) throw new InputFileError(file, 1, `no SQL column in the CSV header (${header.join(', ')}); name it "predicted_sql"`);
  const dbCol = header.find((h) => ['dbid', 'database', 'db'].includes(norm(h)));
  const idCol = header.find((h) => ['questionid', 'taskid', 'id'].includes(norm(h)));
  const byId = new Map(bench.tasks.map((t) => [t.id, t]));
  if (!idCol && rows.length !== bench.tasks.length) {
    throw new InputFileError(file, undefined, `${rows.length} CSV rows, but ${bench.source} has ${bench.tasks.length} questions: rows must line up one per question`);
  }
  rows.forEach((r, i) => {
    const task = idCol ? byId.get(String(r[idCol]).trim()) : bench.tasks[i];
    const line = rowLines[i]!;
    if (!task) throw new InputFileError(file, line, `row ${i + 1}: ${idCol} "${r[idCol!]}" is not a question of ${bench.source}`);
    const earlier = set.byTask.get(task.id);
    if (earlier) throw new InputFileError(file, line, `a second prediction for question ${task.id} (the first is on line ${earlier.line})`);
    const sql = r[sqlCol] ?? '';
    const dbId = dbCol ? String(r[dbCol]).trim() : undefined;
    set.byTask.set(task.id, { taskId: task.id, sql: trimSqlSpace(sql), ...(dbId ? { dbId } : {}), line });
  });
}

function checkDb(file: string, bench: Benchmark, dbOf: Map<string, string>, p: Prediction): void {
  if (p.dbId === undefined) return;
  const taskDb = dbOf.get(p.taskId);
  if (taskDb !== undefined && taskDb !== p.dbId) {
    throw new InputFileError(
      file,
      p.line,
      `prediction for question ${p.taskId} names database "${p.dbId}" but the question is on "${taskDb}": is the file aligned with ${bench.source}?`,
    );
  }
}
