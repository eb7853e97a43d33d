/**
 * Spider's official SQL structure (`process_sql.get_sql` of taoyds/spider and
 * taoyds/test-suite-sql-eval), reimplemented from its behaviour for exact set match. Its
 * failures are part of the metric: a prediction it cannot read is scored as the empty query,
 * so this parser fails exactly where the official one raises, and accepts what it accepts —
 * including its oddities:
 *  - FROM is parsed first (the first `from` token after the start, wherever it is), then the
 *    SELECT list against FROM's tables; a table unit is `name [as alias]` joined by `join`:
 *    INNER/LEFT JOIN, comma joins and bare aliases fail;
 *  - `as` anywhere maps the next token to the previous one as a table alias, and an alias
 *    equal to a table name fails; a select item with an alias (`x AS y`) fails;
 *  - items need no comma between them (`SELECT a b` is two columns);
 *  - a value that is no subquery, quoted string or Python float is read as a column from the
 *    tokens up to the next `,` `)` `and` clause keyword or `join`/`on`/`as` (so `OR` is swallowed);
 *  - LIMIT is always 1, whatever number follows; aggregates hold one column or `*`;
 *  - tokens left over after the last clause are not checked.
 * Structures are plain data shaped like the official tuples and dicts, for the comparison in
 * spider-exact.ts: tuples and lists are arrays, a SQL dict is a SpiderSql object.
 */
import { pyIndex, pySlice, spiderTokens, SpiderTokenizeError } from './spider-tokenize.js';

export const CLAUSE_KEYWORDS = ['select', 'from', 'where', 'group', 'order', 'limit', 'intersect', 'union', 'except'];
const JOIN_KEYWORDS = ['join', 'on', 'as'];
export const WHERE_OPS = ['not', 'between', '=', '>', '<', '>=', '<=', '!=', 'in', 'like', 'is', 'exists'];
export const UNIT_OPS = ['none', '-', '+', '*', '/'];
export const AGG_OPS = ['none', 'max', 'min', 'count', 'sum', 'avg'];
const COND_OPS = ['and', 'or'];
const SQL_OPS = ['intersect', 'union', 'except'] as const;
const ORDER_OPS = ['desc', 'asc'];

/** (agg id, column id such as `__singer.name__` or `__all__`, DISTINCT; null once rebuilt). */
export type ColUnit = [number, string, boolean | null];
/** (unit op id, column unit, second column unit for `a - b`). */
export type ValUnit = [number, ColUnit, ColUnit | null];
/** A condition value: a Python float, a quoted string, a subquery, a column unit; null once rebuilt. */
export type CondValue = number | string | SpiderSql | ColUnit | null;
/** (NOT, where-op id, value unit, value 1, value 2). */
export type CondUnit = [boolean, number, ValUnit, CondValue, CondValue];
/** Units interleaved with 'and'/'or'. */
export type Condition = (CondUnit | 'and' | 'or')[];
export type TableUnit = ['table_unit', string] | ['sql', SpiderSql];

export interface SpiderSql {
  select: [boolean | null, [number, ValUnit][]];
  from: { table_units: TableUnit[]; conds: Condition };
  where: Condition;
  groupBy: ColUnit[];
  having: Condition;
  /** [] or (direction of the last ASC/DESC seen, value units). */
  orderBy: [] | [string, ValUnit[]];
  limit: number | null;
  intersect: SpiderSql | null;
  union: SpiderSql | null;
  except: SpiderSql | null;
}

/** A database's tables and columns as the official `Schema` sees them (all lower-cased). */
export interface SpiderSchema {
  /** table → columns, in the database's order. */
  tables: Map<string, string[]>;
  /** `*`, `table.column` and `table` → `__all__`, `__table.column__`, `__table__`. */
  idMap: Map<string, string>;
}

export function spiderSchema(tables: Map<string, string[]>): SpiderSchema {
  const idMap = new Map<string, string>([['*', '__all__']]);
  for (const [t, cols] of tables) for (const c of cols) idMap.set(`${t}.${c}`, `__${t}.${c}__`);
  for (const t of tables.keys()) idMap.set(t, `__${t}__`);
  return { tables, idMap };
}

/** The structure the official code scores when its parser raised on a prediction. */
export function emptySpiderSql(): SpiderSql {
  return {
    except: null,
    from: { conds: [], table_units: [] },
    groupBy: [],
    having: [],
    intersect: null,
    limit: null,
    orderBy: [],
    select: [false, []],
    union: null,
    where: [],
  };
}

export class SpiderParseError extends Error {}

function fail(why: string): never {
  throw new SpiderParseError(why);
}

function lookup<V>(map: Map<string, V>, key: string): V {
  const v = map.get(key);
  if (v === undefined) fail(`KeyError ${key}`);
  return v;
}

/** Python's float() of a token (underscores between digits, inf, nan). */
const DIGITS = '\\d(?:_?\\d)*';
const PY_FLOAT = new RegExp(`^[+-]?(?:(?:${DIGITS})?\\.${DIGITS}|${DIGITS}\\.?)(?:e[+-]?${DIGITS})?$`, 'i');

export function pythonFloat(tok: string): number | undefined {
  const s = tok.trim();
  if (PY_FLOAT.test(s)) return Number(s.replace(/_/g, ''));
  const m = /^([+-]?)(inf|infinity|nan)$/i.exec(s);
  if (m) return m[2]!.toLowerCase() === 'nan' ? NaN : m[1] === '-' ? -Infinity : Infinity;
  return undefined;
}

/** `get_sql`: the official structure, or a SpiderParseError/SpiderTokenizeError where it raises. */
export function parseSpiderSql(schema: SpiderSchema, sql: string): SpiderSql {
  const toks = spiderTokens(sql);
  const aliases = tablesWithAlias(schema, toks);
  return new Parser(toks, aliases, schema).parseSql(0)[1];
}

/** Whether the official parser reads this SQL (false: it raised and the empty query is scored). */
export function tryParseSpiderSql(schema: SpiderSchema, sql: string): SpiderSql | undefined {
  try {
    return parseSpiderSql(schema, sql);
  } catch (e) {
    if (e instanceof SpiderParseError || e instanceof SpiderTokenizeError) return undefined;
    throw e;
  }
}

function tablesWithAlias(schema: SpiderSchema, toks: string[]): Map<string, string> {
  const tables = new Map<string, string>();
  toks.forEach((t, i) => {
    if (t === 'as') tables.set(pyIndex(toks, i + 1), pyIndex(toks, i - 1));
  });
  for (const key of schema.tables.keys()) {
    if (tables.has(key)) fail(`Alias ${key} has the same name in table`);
    tables.set(key, key);
  }
  return tables;
}

/**
 * CPython's default recursion limit, and the frames already on the stack when evaluation.py (run as a
 * script) enters `parse_sql`: `<module>`, `evaluate`, `get_sql`. Every Parser method that stands for one
 * of process_sql.py's functions counts one frame, so a prediction nested too deeply fails here where
 * the official parser raises RecursionError (its bare `except:` then scores the empty query). The
 * exact depth varies with the Python version and caller; this bound also keeps the JS stack safe.
 */
const PY_RECURSION_LIMIT = 1000;
const PY_FRAMES_BEFORE_PARSE_SQL = 3;

class Parser {
  private frames = PY_FRAMES_BEFORE_PARSE_SQL;

  constructor(
    private readonly toks: string[],
    private readonly aliases: Map<string, string>,
    private readonly schema: SpiderSchema,
  ) {}

  /** A call into one of process_sql.py's functions: Python's RecursionError past the limit. */
  private enter(): void {
    if (++this.frames >= PY_RECURSION_LIMIT) fail('RecursionError: maximum recursion depth exceeded');
  }

  /** Its return (a failure throws and abandons the whole parse, so needs no unwinding). */
  private done<T>(result: T): T {
    this.frames--;
    return result;
  }

  private at(i: number, toks: string[] = this.toks): string {
    return pyIndex(toks, i);
  }

  parseCol(toks: string[], start: number, defaults: string[] | undefined): [number, string] {
    this.enter();
    const tok = this.at(start, toks);
    if (tok === '*') return this.done([start + 1, lookup(this.schema.idMap, tok)]);
    if (tok.includes('.')) {
      const parts = tok.split('.');
      if (parts.length !== 2) fail(`ValueError: cannot unpack ${tok}`);
      const key = `${lookup(this.aliases, parts[0]!)}.${parts[1]!}`;
      return this.done([start + 1, lookup(this.schema.idMap, key)]);
    }
    if (!defaults || defaults.length === 0) fail('Default tables should not be None or empty');
    for (const alias of defaults) {
      const table = lookup(this.aliases, alias);
      if (lookup(this.schema.tables, table).includes(tok)) return this.done([start + 1, lookup(this.schema.idMap, `${table}.${tok}`)]);
    }
    fail(`Error col: ${tok}`);
  }

  parseColUnit(toks: string[], start: number, defaults: string[] | undefined): [number, ColUnit] {
    this.enter();
    let idx = start;
    const len = toks.length;
    let block = false;
    let distinct = false;
    if (this.at(idx, toks) === '(') {
      block = true;
      idx++;
    }
    if (AGG_OPS.includes(this.at(idx, toks))) {
      const agg = AGG_OPS.indexOf(this.at(idx, toks));
      idx++;
      if (!(idx < len && this.at(idx, toks) === '(')) fail('expected (');
      idx++;
      if (this.at(idx, toks) === 'distinct') {
        idx++;
        distinct = true;
      }
      let col: string;
      [idx, col] = this.parseCol(toks, idx, defaults);
      if (!(idx < len && this.at(idx, toks) === ')')) fail('expected )');
      idx++;
      return this.done([idx, [agg, col, distinct]]);
    }
    if (this.at(idx, toks) === 'distinct') {
      idx++;
      distinct = true;
    }
    let col: string;
    [idx, col] = this.parseCol(toks, idx, defaults);
    if (block) {
      if (this.at(idx, toks) !== ')') fail('expected )');
      idx++;
    }
    return this.done([idx, [0, col, distinct]]);
  }

  parseValUnit(start: number, defaults: string[] | undefined): [number, ValUnit] {
    this.enter();
    let idx = start;
    const len = this.toks.length;
    let block = false;
    if (this.at(idx) === '(') {
      block = true;
      idx++;
    }
    let unitOp = 0;
    let col1: ColUnit;
    let col2: ColUnit | null = null;
    [idx, col1] = this.parseColUnit(this.toks, idx, defaults);
    if (idx < len && UNIT_OPS.includes(this.at(idx))) {
      unitOp = UNIT_OPS.indexOf(this.at(idx));
      idx++;
      [idx, col2] = this.parseColUnit(this.toks, idx, defaults);
    }
    if (block) {
      if (this.at(idx) !== ')') fail('expected )');
      idx++;
    }
    return this.done([idx, [unitOp, col1, col2]]);
  }

  parseTableUnit(start: number): [number, string, string] {
    this.enter();
    const len = this.toks.length;
    const key = lookup(this.aliases, this.at(start));
    const idx = start + 1 < len && this.at(start + 1) === 'as' ? start + 3 : start + 1;
    return this.done([idx, lookup(this.schema.idMap, key), key]);
  }

  parseValue(start: number, defaults: string[] | undefined): [number, CondValue] {
    this.enter();
    let idx = start;
    const len = this.toks.length;
    let block = false;
    if (this.at(idx) === '(') {
      block = true;
      idx++;
    }
    let val: CondValue;
    const tok = this.at(idx);
    const num = pythonFloat(tok);
    if (tok === 'select') {
      [idx, val] = this.parseSql(idx);
    } else if (tok.includes('"')) {
      val = tok;
      idx++;
    } else if (num !== undefined) {
      val = num;
      idx++;
    } else {
      let end = idx;
      while (end < len) {
        const t = this.toks[end]!;
        if (t === ',' || t === ')' || t === 'and' || CLAUSE_KEYWORDS.includes(t) || JOIN_KEYWORDS.includes(t)) break;
        end++;
      }
      // The official code reads the column from the tokens since `start` (a '(' included).
      [, val] = this.parseColUnit(pySlice(this.toks, start, end), 0, defaults);
      idx = end;
    }
    if (block) {
      if (this.at(idx) !== ')') fail('expected )');
      idx++;
    }
    return this.done([idx, val]);
  }

  parseCondition(start: number, defaults: string[] | undefined): [number, Condition] {
    this.enter();
    let idx = start;
    const len = this.toks.length;
    const conds: Condition = [];
    while (idx < len) {
      let valUnit: ValUnit;
      [idx, valUnit] = this.parseValUnit(idx, defaults);
      let not = false;
      if (this.at(idx) === 'not') {
        not = true;
        idx++;
      }
      if (!(idx < len && WHERE_OPS.includes(this.at(idx)))) fail(`Error condition: idx: ${idx}`);
      const op = WHERE_OPS.indexOf(this.at(idx));
      idx++;
      let v1: CondValue;
      let v2: CondValue = null;
      if (op === WHERE_OPS.indexOf('between')) {
        [idx, v1] = this.parseValue(idx, defaults);
        if (this.at(idx) !== 'and') fail('expected and');
        idx++;
        [idx, v2] = this.parseValue(idx, defaults);
      } else {
        [idx, v1] = this.parseValue(idx, defaults);
      }
      conds.push([not, op, valUnit, v1, v2]);
      if (idx < len && (CLAUSE_KEYWORDS.includes(this.at(idx)) || [')', ';'].includes(this.at(idx)) || JOIN_KEYWORDS.includes(this.at(idx)))) break;
      if (idx < len && COND_OPS.includes(this.at(idx))) {
        conds.push(this.at(idx) as 'and' | 'or');
        idx++;
      }
    }
    return this.done([idx, conds]);
  }

  parseSelect(start: number, defaults: string[]): [number, SpiderSql['select']] {
    this.enter();
    let idx = start;
    const len = this.toks.length;
    if (this.at(idx) !== 'select') fail("'select' not found");
    idx++;
    let distinct = false;
    if (idx < len && this.at(idx) === 'distinct') {
      idx++;
      distinct = true;
    }
    const units: [number, ValUnit][] = [];
    while (idx < len && !CLAUSE_KEYWORDS.includes(this.at(idx))) {
      let agg = 0;
      if (AGG_OPS.includes(this.at(idx))) {
        agg = AGG_OPS.indexOf(this.at(idx));
        idx++;
      }
      let vu: ValUnit;
      [idx, vu] = this.parseValUnit(idx, defaults);
      units.push([agg, vu]);
      if (idx < len && this.at(idx) === ',') idx++;
    }
    return this.done([idx, [distinct, units]]);
  }

  parseFrom(start: number): [number, TableUnit[], Condition, string[]] {
    this.enter();
    const from = this.toks.indexOf('from', start);
    if (from < 0) fail("'from' not found");
    const len = this.toks.length;
    let idx = from + 1;
    const defaults: string[] = [];
    const units: TableUnit[] = [];
    const conds: Condition = [];
    while (idx < len) {
      let block = false;
      if (this.at(idx) === '(') {
        block = true;
        idx++;
      }
      if (this.at(idx) === 'select') {
        let sub: SpiderSql;
        [idx, sub] = this.parseSql(idx);
        units.push(['sql', sub]);
      } else {
        if (idx < len && this.at(idx) === 'join') idx++;
        let id: string;
        let name: string;
        [idx, id, name] = this.parseTableUnit(idx);
        units.push(['table_unit', id]);
        defaults.push(name);
      }
      if (idx < len && this.at(idx) === 'on') {
        idx++;
        let these: Condition;
        [idx, these] = this.parseCondition(idx, defaults);
        if (conds.length > 0) conds.push('and');
        conds.push(...these);
      }
      if (block) {
        if (this.at(idx) !== ')') fail('expected )');
        idx++;
      }
      if (idx < len && (CLAUSE_KEYWORDS.includes(this.at(idx)) || [')', ';'].includes(this.at(idx)))) break;
    }
    return this.done([idx, units, conds, defaults]);
  }

  private parseClauseConds(word: string, start: number, defaults: string[]): [number, Condition] {
    this.enter();
    if (start >= this.toks.length || this.at(start) !== word) return this.done([start, []]);
    return this.done(this.parseCondition(start + 1, defaults));
  }

  parseGroupBy(start: number, defaults: string[]): [number, ColUnit[]] {
    this.enter();
    let idx = start;
    const len = this.toks.length;
    const units: ColUnit[] = [];
    if (idx >= len || this.at(idx) !== 'group') return this.done([idx, units]);
    idx++;
    if (this.at(idx) !== 'by') fail('expected by');
    idx++;
    while (idx < len && !(CLAUSE_KEYWORDS.includes(this.at(idx)) || [')', ';'].includes(this.at(idx)))) {
      let cu: ColUnit;
      [idx, cu] = this.parseColUnit(this.toks, idx, defaults);
      units.push(cu);
      if (idx < len && this.at(idx) === ',') idx++;
      else break;
    }
    return this.done([idx, units]);
  }

  parseOrderBy(start: number, defaults: string[]): [number, SpiderSql['orderBy']] {
    this.enter();
    let idx = start;
    const len = this.toks.length;
    const units: ValUnit[] = [];
    let direction = 'asc';
    if (idx >= len || this.at(idx) !== 'order') return this.done([idx, []]);
    idx++;
    if (this.at(idx) !== 'by') fail('expected by');
    idx++;
    while (idx < len && !(CLAUSE_KEYWORDS.includes(this.at(idx)) || [')', ';'].includes(this.at(idx)))) {
      let vu: ValUnit;
      [idx, vu] = this.parseValUnit(idx, defaults);
      units.push(vu);
      if (idx < len && ORDER_OPS.includes(this.at(idx))) {
        direction = this.at(idx);
        idx++;
      }
      if (idx < len && this.at(idx) === ',') idx++;
      else break;
    }
    return this.done([idx, [direction, units]]);
  }

  parseLimit(start: number): [number, number | null] {
    this.enter();
    if (start < this.toks.length && this.at(start) === 'limit') {
      // The official check `type(tok) != int` holds for every token (they are strings): always 1.
      this.at(start + 1);
      return this.done([start + 2, 1]);
    }
    return this.done([start, null]);
  }

  private skipSemicolons(start: number): number {
    this.enter();
    let idx = start;
    while (idx < this.toks.length && this.toks[idx] === ';') idx++;
    return this.done(idx);
  }

  parseSql(start: number): [number, SpiderSql] {
    this.enter();
    let block = false;
    const len = this.toks.length;
    let idx = start;
    if (this.at(idx) === '(') {
      block = true;
      idx++;
    }
    const [fromEnd, tableUnits, fromConds, defaults] = this.parseFrom(start);
    const [, select] = this.parseSelect(idx, defaults);
    idx = fromEnd;
    let where: Condition;
    [idx, where] = this.parseClauseConds('where', idx, defaults);
    let groupBy: ColUnit[];
    [idx, groupBy] = this.parseGroupBy(idx, defaults);
    let having: Condition;
    [idx, having] = this.parseClauseConds('having', idx, defaults);
    let orderBy: SpiderSql['orderBy'];
    [idx, orderBy] = this.parseOrderBy(idx, defaults);
    let limit: number | null;
    [idx, limit] = this.parseLimit(idx);
    idx = this.skipSemicolons(idx);
    if (block) {
      if (this.at(idx) !== ')') fail('expected )');
      idx++;
    }
    idx = this.skipSemicolons(idx);
    const sql: SpiderSql = {
      select,
      from: { table_units: tableUnits, conds: fromConds },
      where,
      groupBy,
      having,
      orderBy,
      limit,
      intersect: null,
      union: null,
      except: null,
    };
    if (idx < len && (SQL_OPS as readonly string[]).includes(this.at(idx))) {
      const op = this.at(idx) as (typeof SQL_OPS)[number];
      let sub: SpiderSql;
      [idx, sub] = this.parseSql(idx + 1);
      sql[op] = sub;
    }
    return this.done([idx, sql]);
  }
}
