import { InputFileError } from '../errors.js';
import { arrayElementLines, parseJsonText, readText } from './read-json.js';
import type { Benchmark, BenchmarkFormat, Task } from './types.js';

/** A JSON file starts with `[` or `{`; the official gold files (dev_gold.sql) start with SQL. */
function isGoldText(text: string): boolean {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  return start !== '' && start[0] !== '[' && start[0] !== '{';
}

/**
 * The official gold format of Spider and BIRD (`dev_gold.sql`): one `SQL<TAB>db_id` line per task, read as
 * the official evaluators read it (blank lines skipped, the last TAB field is the db_id). The task id is the
 * position; there are no question texts, and the difficulty is Spider's hardness of the gold SQL.
 */
function loadGoldText(file: string, text: string): Benchmark {
  const tasks: Task[] = [];
  text.replace(/^\uFEFF/, '').split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    const tab = line.lastIndexOf('\t');
    const sql = tab >= 0 ? line.slice(0, tab).trim() : '';
    const dbId = tab >= 0 ? line.slice(tab + 1).trim() : '';
    if (sql === '' || dbId === '') {
      throw new InputFileError(file, i + 1, 'expected JSON questions, or the official gold format: one "SQL<TAB>db_id" line per task');
    }
    tasks.push({ id: String(tasks.length), dbId, question: '', evidence: '', goldSql: sql });
  });
  return { format: 'spider', source: file, tasks };
}

/**
 * Loads a questions file in BIRD format (`question_id, db_id, question, evidence, SQL, difficulty`)
 * or Spider format (`db_id, query, question`; the task id is the position). The format is taken
 * from the records' keys so users need not say it. A file that is not JSON is read as the official
 * gold format (`SQL<TAB>db_id` lines).
 */
export function loadBenchmark(file: string): Benchmark {
  const text = readText(file);
  if (text.trim() === '') throw new InputFileError(file, undefined, 'is empty: expected BIRD or Spider questions (a JSON array) or the official gold format (SQL<TAB>db_id lines)');
  if (isGoldText(text)) return loadGoldText(file, text);
  const data = parseJsonText(file, text);
  if (!Array.isArray(data)) throw new InputFileError(file, 1, 'expected a JSON array of question records');
  if (data.length === 0) throw new InputFileError(file, 1, 'the questions file holds no questions');
  // Element lines are needed only for messages: found once, on the first one.
  let elementLines: number[] | undefined;
  const lineOf = (i: number): number | undefined => (elementLines ??= arrayElementLines(text))[i];
  const first = data[0] as Record<string, unknown>;
  const format: BenchmarkFormat | undefined =
    first && typeof first === 'object' && 'SQL' in first ? 'bird' : first && typeof first === 'object' && 'query' in first ? 'spider' : undefined;
  if (!format) {
    throw new InputFileError(
      file,
      lineOf(0),
      'unknown questions format: expected BIRD records (with "SQL") or Spider records (with "query")',
    );
  }
  const tasks: Task[] = [];
  const seen = new Set<string>();
  const notes: string[] = [];
  data.forEach((raw, i) => {
    const where = (): number | undefined => lineOf(i);
    if (typeof raw !== 'object' || raw === null) throw new InputFileError(file, where(), `question ${i} is not an object`);
    const r = raw as Record<string, unknown>;
    const sql = format === 'bird' ? r.SQL : r.query;
    if (typeof sql !== 'string') throw new InputFileError(file, where(), `question ${i}: gold SQL (${format === 'bird' ? '"SQL"' : '"query"'}) must be a string`);
    if (typeof r.db_id !== 'string' || r.db_id === '') throw new InputFileError(file, where(), `question ${i}: "db_id" must be a non-empty string`);
    let id = format === 'bird' && (typeof r.question_id === 'number' || typeof r.question_id === 'string') ? String(r.question_id) : String(i);
    if (seen.has(id)) {
      // BIRD mini-dev ships question_ids 137 and 138 twice; keep both tasks (the official
      // evaluator goes by position) under distinct ids and say so.
      let k = 2;
      while (seen.has(`${id}#${k}`)) k++;
      notes.push(`question_id ${id} repeats (line ${where() ?? '?'}); the repeat is task "${id}#${k}"`);
      id = `${id}#${k}`;
    }
    seen.add(id);
    tasks.push({
      id,
      dbId: r.db_id,
      question: typeof r.question === 'string' ? r.question : '',
      evidence: typeof r.evidence === 'string' ? r.evidence : '',
      goldSql: sql,
      ...(typeof r.difficulty === 'string' ? { difficulty: r.difficulty } : {}),
    });
  });
  return { format, source: file, tasks, ...(notes.length ? { notes } : {}) };
}
