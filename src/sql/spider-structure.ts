/**
 * The shape of a query as Spider's `process_sql.get_sql` sees it, without the schema:
 * only what Spider's hardness and keyword counts look at (aggregates, table units,
 * condition lists with their conjunctions, nested queries, clauses present).
 *
 * A tolerant recursive-descent parser over src/sql/tokenize.ts: it never throws; when the
 * SQL leaves Spider's grammar it still returns its best reading and says `parsed: false`.
 */
import { significantTokens, type Token } from './tokenize.js';

export interface CondUnit {
  /** The NOT before the operator (`x NOT IN`, `x NOT LIKE`, `x NOT BETWEEN`). */
  not: boolean;
  /** The operator as Spider names it: = > < >= <= != in like is between exists, or another. */
  op: string;
  /** How many of its values are subqueries (BETWEEN has two values). */
  nestedValues: number;
}

export interface CondList {
  units: CondUnit[];
  /** The 'and'/'or' between consecutive units (Spider interleaves them in one list). */
  conjunctions: Array<'and' | 'or'>;
}

export interface SpiderSelect {
  /** One entry per select item; `agg` when the item starts with an aggregate function. */
  select: Array<{ agg: boolean }>;
  /** Tables and FROM-subqueries joined together. */
  tableUnits: number;
  /** JOIN ... ON conditions, all ON clauses concatenated. */
  fromConds: CondList;
  where: CondList;
  groupBy: Array<{ agg: boolean }>;
  having: CondList;
  /** ORDER BY val units: aggregates of the first and (for a - b etc.) second operand. */
  orderBy: Array<{ agg1: boolean; agg2: boolean }>;
  hasLimit: boolean;
  /** The first INTERSECT/UNION/EXCEPT; a chain nests in the right-hand query. */
  setOp: { op: 'intersect' | 'union' | 'except'; query: SpiderSelect } | null;
}

export interface SpiderStructure {
  query: SpiderSelect;
  /** False when something did not fit Spider's grammar (the result is then a best guess). */
  parsed: boolean;
}

const AGG = new Set(['max', 'min', 'count', 'sum', 'avg']);
const CLAUSE = new Set(['select', 'from', 'where', 'group', 'order', 'limit', 'intersect', 'union', 'except', 'having']);
// Spider's CLAUSE_KEYWORDS (no 'having'), where a column value stops.
const SPIDER_CLAUSE = new Set(['select', 'from', 'where', 'group', 'order', 'limit', 'intersect', 'union', 'except']);
const SET_OPS = new Set(['intersect', 'union', 'except']);
const JOIN_WORDS = new Set(['join', 'inner', 'left', 'right', 'full', 'outer', 'cross', 'natural']);
const COMPARISONS = new Set(['=', '==', '>', '<', '>=', '<=', '!=', '<>']);
const WORD_OPS = new Set(['between', 'in', 'like', 'is', 'exists', 'glob', 'match', 'regexp']);
const UNIT_OPS = new Set(['-', '+', '*', '/']);

function emptySelect(): SpiderSelect {
  return {
    select: [],
    tableUnits: 0,
    fromConds: { units: [], conjunctions: [] },
    where: { units: [], conjunctions: [] },
    groupBy: [],
    having: { units: [], conjunctions: [] },
    orderBy: [],
    hasLimit: false,
    setOp: null,
  };
}

export function parseSpiderStructure(sql: string): SpiderStructure {
  try {
    const p = new StructureParser(significantTokens(sql));
    const query = p.parseQuery();
    p.skipSemicolons();
    if (!p.atEnd()) p.ok = false;
    return { query, parsed: p.ok };
  } catch {
    // Defensive: the parser is written not to throw, but a hardness must always come back.
    return { query: emptySelect(), parsed: false };
  }
}

/**
 * How deep queries and parenthesised conditions may nest: deeper text is left unread (`parsed: false`),
 * which keeps this parser and the counts that walk its result within the JS stack. Spider's own parser
 * gives up far earlier (Python's recursion limit: spider-parse.ts).
 */
const MAX_NESTING = 500;

class StructureParser {
  ok = true;
  private i = 0;
  private nesting = 0;

  constructor(private readonly toks: Token[]) {}

  atEnd(): boolean {
    return this.i >= this.toks.length;
  }

  skipSemicolons(): void {
    while (this.text() === ';') this.i++;
  }

  /** Lower-cased text of the token at offset `k` (string literals stay marked as such). */
  private text(k = 0): string {
    const t = this.toks[this.i + k];
    if (!t) return '';
    if (t.kind === 'word') return t.text.toLowerCase();
    if (t.kind === 'string' || t.kind === 'dquoted') return '\u0000value';
    return t.text;
  }

  private isWordAt(k: number, word: string): boolean {
    return this.toks[this.i + k]?.kind === 'word' && this.text(k) === word;
  }

  /** True at a token that ends an expression in Spider's grammar (depth 0 only). */
  private atBoundary(): boolean {
    const w = this.text();
    if (w === '' || w === ')' || w === ';' || w === ',') return true;
    const t = this.toks[this.i]!;
    return t.kind === 'word' && (CLAUSE.has(w) || JOIN_WORDS.has(w) || w === 'on' || w === 'and' || w === 'or');
  }

  /** Skips a balanced (...) group starting at '('. */
  private skipGroup(): void {
    let depth = 0;
    while (!this.atEnd()) {
      const w = this.text();
      this.i++;
      if (w === '(') depth++;
      else if (w === ')' && --depth === 0) return;
    }
    this.ok = false; // unbalanced
  }

  /** Skips CASE ... END, which may contain comparisons and AND/OR of its own. */
  private skipCase(): void {
    let depth = 0;
    while (!this.atEnd()) {
      const w = this.text();
      const word = this.toks[this.i]!.kind === 'word';
      if (w === '(') {
        this.skipGroup();
        continue;
      }
      this.i++;
      if (word && w === 'case') depth++;
      else if (word && w === 'end' && --depth === 0) return;
    }
    this.ok = false;
  }

  /** Skips one primary term: a parenthesised group, CASE, a function call or a name. */
  private skipTerm(): void {
    const w = this.text();
    if (w === '(') return this.skipGroup();
    if (this.isWordAt(0, 'case')) return this.skipCase();
    this.i++;
    if (this.text() === '(' && this.toks[this.i - 1]!.kind === 'word') this.skipGroup();
    // Qualified names: T1.name
    while (this.text() === '.' && !this.atEnd()) {
      this.i++;
      if (!this.atEnd()) this.i++;
    }
  }

  /** Past MAX_NESTING: the rest of the text is skipped unread. */
  private tooDeep(): boolean {
    if (this.nesting < MAX_NESTING) return false;
    this.ok = false;
    this.i = this.toks.length;
    return true;
  }

  parseQuery(): SpiderSelect {
    const q = emptySelect();
    if (this.tooDeep()) return q;
    this.nesting++;
    try {
      this.readQuery(q);
    } finally {
      this.nesting--;
    }
    return q;
  }

  private readQuery(q: SpiderSelect): void {
    let block = 0;
    while (this.text() === '(') {
      block++;
      this.i++;
    }
    if (this.isWordAt(0, 'with')) this.skipWith();
    if (!this.isWordAt(0, 'select')) {
      this.ok = false;
      this.recover();
    } else {
      this.i++;
      this.parseSelectList(q);
    }
    while (!this.atEnd()) {
      const w = this.text();
      if (!this.isWordAt(0, w) || !CLAUSE.has(w) || w === 'select' || SET_OPS.has(w)) break;
      this.i++;
      if (w === 'from') this.parseFrom(q);
      else if (w === 'where') this.parseConditions(q.where);
      else if (w === 'having') this.parseConditions(q.having);
      else if (w === 'group') this.parseGroupBy(q);
      else if (w === 'order') this.parseOrderBy(q);
      else if (w === 'limit') this.parseLimit(q);
    }
    this.skipSemicolons();
    while (block > 0 && this.text() === ')') {
      block--;
      this.i++;
    }
    if (block > 0) this.ok = false;
    this.skipSemicolons();
    const op = this.text();
    if (this.isWordAt(0, op) && SET_OPS.has(op)) {
      this.i++;
      if (this.isWordAt(0, 'all')) {
        // UNION ALL is outside Spider's grammar; count it like UNION, as a best guess.
        this.ok = false;
        this.i++;
      }
      q.setOp = { op: op as 'intersect' | 'union' | 'except', query: this.parseQuery() };
    } else if (!this.atEnd() && this.text() !== ')') {
      this.ok = false;
    }
  }

  /** Outside Spider's grammar: WITH name AS (...), ... is skipped to reach the SELECT. */
  private skipWith(): void {
    this.ok = false;
    this.i++;
    while (!this.atEnd() && !this.isWordAt(0, 'select')) {
      if (this.text() === '(') this.skipGroup();
      else this.i++;
    }
  }

  /** Moves to the next clause keyword at depth 0 after something unexpected. */
  private recover(): void {
    while (!this.atEnd()) {
      const w = this.text();
      if (w === ')') return;
      if (this.isWordAt(0, w) && CLAUSE.has(w) && w !== 'select') return;
      if (w === '(') this.skipGroup();
      else this.i++;
    }
  }

  private parseSelectList(q: SpiderSelect): void {
    if (this.isWordAt(0, 'distinct') || this.isWordAt(0, 'all')) this.i++;
    while (!this.atEnd()) {
      const w = this.text();
      if (w === ')' || w === ';' || (this.isWordAt(0, w) && CLAUSE.has(w))) break;
      // Spider reads an aggregate name at the start of an item as the item's aggregate.
      q.select.push({ agg: this.isWordAt(0, w) && AGG.has(w) });
      this.skipExpression();
      if (this.isWordAt(0, 'as')) this.i += 2;
      else if (this.toks[this.i]?.kind === 'word' && !CLAUSE.has(this.text())) this.i++; // bare alias
      if (this.text() === ',') {
        this.i++;
        continue;
      }
      const next = this.text();
      if (!(this.atEnd() || next === ')' || (this.isWordAt(0, next) && CLAUSE.has(next)))) {
        this.ok = false;
        this.recover();
      }
      break;
    }
  }

  /** Skips an expression made of terms joined by arithmetic/concatenation operators. */
  private skipExpression(): void {
    for (;;) {
      while (this.text() === '-' || this.text() === '+' || this.isWordAt(0, 'distinct')) this.i++;
      if (this.atEnd() || this.atBoundary()) return;
      const before = this.i;
      this.skipTerm();
      if (this.i === before) this.i++; // always progress
      if (this.isWordAt(0, 'over') || this.isWordAt(0, 'collate') || this.isWordAt(0, 'filter')) {
        this.i++;
        if (this.text() === '(') this.skipGroup();
        else this.i++;
      }
      const w = this.text();
      if (!(UNIT_OPS.has(w) || w === '||' || w === '%')) return;
      this.i++;
    }
  }

  private parseFrom(q: SpiderSelect): void {
    let expectUnit = true;
    let onLists = 0;
    while (!this.atEnd()) {
      const w = this.text();
      const isWord = this.isWordAt(0, w);
      if (w === ')' || w === ';' || (isWord && CLAUSE.has(w))) break;
      if (w === ',') {
        this.i++;
        expectUnit = true;
      } else if (isWord && JOIN_WORDS.has(w)) {
        this.i++;
        if (w === 'join') expectUnit = true;
      } else if (isWord && w === 'on') {
        this.i++;
        // Spider concatenates the ON lists with an 'and' between them.
        const list: CondList = { units: [], conjunctions: [] };
        this.parseConditions(list);
        if (onLists++ > 0 && list.units.length > 0) q.fromConds.conjunctions.push('and');
        q.fromConds.units.push(...list.units);
        q.fromConds.conjunctions.push(...list.conjunctions);
      } else if (isWord && w === 'using') {
        this.i++;
        if (this.text() === '(') this.skipGroup();
      } else if (w === '(') {
        if (this.isWordAt(1, 'select') || this.text(1) === '(') {
          // A subquery in FROM is one table unit; its inside does not count.
          this.skipGroup();
          q.tableUnits++;
          this.skipAlias();
          expectUnit = false;
        } else {
          this.i++; // parenthesised join list: read the units inside
        }
      } else if (expectUnit) {
        this.i++;
        while (this.text() === '.') this.i += 2; // schema.table
        q.tableUnits++;
        this.skipAlias();
        expectUnit = false;
      } else {
        this.ok = false;
        this.i++;
      }
    }
  }

  private skipAlias(): void {
    if (this.isWordAt(0, 'as')) {
      this.i += 2;
      return;
    }
    const t = this.toks[this.i];
    if (t && (t.kind === 'word' || t.kind === 'quotedIdent')) {
      const w = this.text();
      if (!CLAUSE.has(w) && !JOIN_WORDS.has(w) && w !== 'on' && w !== 'using') this.i++;
    }
  }

  /** A condition list: units joined by AND/OR, stopping at a clause, ')' or a join word. */
  private parseConditions(list: CondList): void {
    for (;;) {
      if (this.atEnd()) break;
      const w = this.text();
      if (w === ')' || w === ';' || (this.isWordAt(0, w) && (CLAUSE.has(w) || JOIN_WORDS.has(w) || w === 'on'))) break;
      if (w === '(' && !this.isWordAt(1, 'select') && this.groupHasCondition()) {
        // (a OR b): outside Spider's grammar; read the inner units into this list.
        this.ok = false;
        this.i++;
        if (this.tooDeep()) break;
        this.nesting++;
        this.parseConditions(list);
        this.nesting--;
        if (this.text() === ')') this.i++;
      } else {
        list.units.push(this.parseCondUnit());
      }
      const c = this.text();
      if (this.isWordAt(0, c) && (c === 'and' || c === 'or')) {
        list.conjunctions.push(c);
        this.i++;
        continue;
      }
      break;
    }
  }

  /** Whether the '(' group here holds a condition (a comparison or AND/OR at its top level). */
  private groupHasCondition(): boolean {
    let depth = 0;
    for (let k = this.i; k < this.toks.length; k++) {
      const t = this.toks[k]!;
      if (t.text === '(') depth++;
      else if (t.text === ')') {
        if (--depth === 0) return false;
      } else if (depth === 1) {
        const w = t.kind === 'word' ? t.text.toLowerCase() : t.text;
        if (COMPARISONS.has(w) || (t.kind === 'word' && (WORD_OPS.has(w) || w === 'and' || w === 'or' || w === 'not'))) {
          return true;
        }
      }
    }
    return false;
  }

  private parseCondUnit(): CondUnit {
    const unit: CondUnit = { not: false, op: '', nestedValues: 0 };
    if (this.isWordAt(0, 'not')) {
      // NOT before the operand: outside Spider's grammar; count it as the unit's NOT.
      this.ok = false;
      unit.not = true;
      this.i++;
    }
    if (!this.isWordAt(0, 'exists')) this.skipExpression();
    if (this.isWordAt(0, 'not')) {
      unit.not = true;
      this.i++;
    }
    const op = this.text();
    if (COMPARISONS.has(op) || (this.isWordAt(0, op) && WORD_OPS.has(op))) {
      unit.op = op === '<>' ? '!=' : op === '==' ? '=' : op;
      this.i++;
    } else {
      this.ok = false;
      return unit;
    }
    if (unit.op === 'is' && this.isWordAt(0, 'not')) this.i++;
    unit.nestedValues += this.parseValue();
    if (unit.op === 'between') {
      if (this.isWordAt(0, 'and')) {
        this.i++;
        unit.nestedValues += this.parseValue();
      } else {
        this.ok = false;
      }
    }
    if (this.isWordAt(0, 'escape')) {
      this.i++;
      this.skipTerm();
    }
    return unit;
  }

  /**
   * Skips one value the way Spider's `parse_value` does; returns 1 when it is a subquery.
   * A value that is neither a subquery, a string nor a number is read as a column and
   * Spider then jumps to the next ',', ')', 'and', clause keyword, JOIN/ON/AS, with no
   * regard for depth. That swallows a following `OR cond` (e.g. `ON a = b OR a = c` keeps
   * one condition), and the hardness counts depend on it.
   */
  private parseValue(): number {
    let block = false;
    if (this.text() === '(') {
      if (this.isWordAt(1, 'select')) {
        this.skipGroup();
        return 1;
      }
      block = true;
      this.i++;
    }
    let nested = 0;
    const t = this.toks[this.i];
    if (this.isWordAt(0, 'select')) {
      // A bare SELECT as a value (no parentheses): read it as a nested query.
      this.parseQuery();
      nested = 1;
    } else if (t && (t.kind === 'string' || t.kind === 'dquoted' || t.kind === 'number')) {
      this.i++;
    } else if (t && t.text === '-' && this.toks[this.i + 1]?.kind === 'number') {
      this.i += 2;
    } else {
      while (!this.atEnd() && !this.endsColumnValue()) this.i++;
    }
    if (block) {
      if (this.text() === ')') this.i++;
      else this.ok = false;
    }
    return nested;
  }

  private endsColumnValue(): boolean {
    const w = this.text();
    if (w === ',' || w === ')') return true;
    return this.isWordAt(0, w) && (w === 'and' || SPIDER_CLAUSE.has(w) || w === 'join' || w === 'on' || w === 'as');
  }

  private parseGroupBy(q: SpiderSelect): void {
    if (this.isWordAt(0, 'by')) this.i++;
    else this.ok = false;
    while (!this.atEnd() && !this.atBoundary()) {
      q.groupBy.push({ agg: this.startsWithAgg() });
      this.skipExpression();
      if (this.text() !== ',') break;
      this.i++;
    }
  }

  private parseOrderBy(q: SpiderSelect): void {
    if (this.isWordAt(0, 'by')) this.i++;
    else this.ok = false;
    while (!this.atEnd() && !this.atBoundary()) {
      // Spider's val_unit: [(] col_unit [op col_unit] [)]
      const start = this.i;
      const paren = this.text() === '(' && !this.isWordAt(1, 'select');
      if (paren) this.i++;
      const agg1 = this.startsWithAgg();
      this.skipTerm();
      let agg2 = false;
      if (UNIT_OPS.has(this.text())) {
        this.i++;
        agg2 = this.startsWithAgg();
      }
      this.i = start;
      this.skipExpression();
      q.orderBy.push({ agg1, agg2 });
      if (this.isWordAt(0, 'asc') || this.isWordAt(0, 'desc')) this.i++;
      if (this.isWordAt(0, 'nulls')) this.i += 2;
      if (this.text() !== ',') break;
      this.i++;
    }
  }

  private parseLimit(q: SpiderSelect): void {
    q.hasLimit = true;
    this.skipExpression();
    if (this.isWordAt(0, 'offset') || this.text() === ',') {
      this.i++;
      this.skipExpression();
    }
  }

  private startsWithAgg(): boolean {
    const w = this.text();
    return this.isWordAt(0, w) && AGG.has(w) && this.text(1) === '(';
  }
}
