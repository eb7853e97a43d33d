import type { TaskContext } from '../context.js';
import { hasRepeats } from '../normalize.js';
import type { Vote } from '../types.js';
import { outvoted, type LabelingFunction } from './types.js';

const q = (c: TaskContext): string => c.task.question.toLowerCase();
const has = (c: TaskContext, agg: string): boolean => c.goldShape.aggregates.includes(agg);

const WORD_NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const SUPERLATIVE = /\b(most|least|highest|lowest|largest|smallest|oldest|youngest|maximum|minimum|fewest|longest|shortest|biggest|greatest|earliest|latest|best|worst)\b/;

/** Cue-based votes are weak evidence; when the agents back the gold, a cue mismatch is more likely our misreading. */
function cueError(cond: boolean, c: TaskContext): Vote {
  return cond && (outvoted(c) || c.nValid === 0) ? -1 : 0;
}

/** Intent family: cues in the question that the gold SQL must honour. */
export const intentLfs: LabelingFunction[] = [
  {
    name: 'int_how_many',
    family: 'intent',
    doc: '"How many" / "number of" but the gold neither counts nor sums, and is out-voted → error.',
    vote: (c) => cueError(/\b(how many|number of)\b/.test(q(c)) && !has(c, 'count') && !has(c, 'sum'), c),
  },
  {
    name: 'int_average',
    family: 'intent',
    doc: '"Average" / "mean" but the gold has no AVG, and is out-voted → error.',
    vote: (c) => cueError(/\b(average|mean)\b/.test(q(c)) && !has(c, 'avg'), c),
  },
  {
    name: 'int_total',
    family: 'intent',
    doc: '"Total" but the gold neither sums nor counts, and is out-voted → error.',
    vote: (c) => cueError(/\btotal\b/.test(q(c)) && !has(c, 'sum') && !has(c, 'count'), c),
  },
  {
    name: 'int_superlative',
    family: 'intent',
    doc: 'A superlative ("highest", "most", …) but the gold has no ORDER BY, MAX/MIN or HAVING, and is out-voted → error.',
    vote: (c) => cueError(SUPERLATIVE.test(q(c)) && !c.goldShape.orderBy && !has(c, 'max') && !has(c, 'min') && !c.goldShape.having, c),
  },
  {
    name: 'int_top_n',
    family: 'intent',
    doc: '"Top N" / "first N" but the gold\'s LIMIT is not N, and is out-voted → error.',
    vote: (c) => {
      const m = /\b(?:top|first)\s+(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b/.exec(q(c));
      if (!m) return 0;
      const n = WORD_NUMBERS[m[1]!] ?? Number(m[1]);
      return cueError(c.goldShape.limit !== n, c);
    },
  },
  {
    name: 'int_order',
    family: 'intent',
    doc: '"Sorted" / "in … order" / "ascending" / "descending" / "alphabetical" but the gold has no ORDER BY → error.',
    vote: (c) => cueError(/\b(sorted|sort|ordered|order of|ascending|descending|alphabetical|alphabetically)\b/.test(q(c)) && !c.goldShape.orderBy, c),
  },
  {
    name: 'int_order_direction',
    family: 'intent',
    doc: '"Descending" / "from highest" but the gold (without LIMIT) sorts ascending (or the reverse), out-voted → error.',
    vote: (c) => {
      if (!c.goldShape.orderBy || c.goldShape.limit !== null) return 0;
      const s = q(c);
      const desc = /\b(descending|decreasing|from (the )?(highest|largest|most|oldest|biggest))\b/.test(s);
      const asc = /\b(ascending|increasing|from (the )?(lowest|smallest|least|youngest)|alphabetical)/.test(s);
      return cueError((desc && !asc && !c.goldShape.orderDesc) || (asc && !desc && c.goldShape.orderDesc), c);
    },
  },
  {
    name: 'int_distinct',
    family: 'intent',
    doc: '"Different" / "distinct" / "unique" but the gold keeps duplicate rows, out-voted → error.',
    vote: (c) => cueError(/\b(different|distinct|unique)\b/.test(q(c)) && !c.goldShape.distinct && !c.goldShape.countDistinct && hasRepeats(c.gold), c),
  },
  {
    name: 'int_each_group',
    family: 'intent',
    doc: '"For each" / "per" / "by each" but the gold aggregates without GROUP BY, out-voted → error.',
    vote: (c) => cueError(/\b(for each|per|for every|by each)\b/.test(q(c)) && !c.goldShape.groupBy && c.goldShape.aggregates.length > 0, c),
  },
  {
    name: 'int_missing_number',
    family: 'intent',
    doc: 'A number in the question (not a "top N") is absent from the gold SQL, and the gold is out-voted → error.',
    vote: (c) => {
      const nums = [...q(c).matchAll(/(?<![\w.])(\d+(?:\.\d+)?)(?![\w.])/g)].map((m) => String(Number(m[1])));
      const topN = /\b(?:top|first)\s+(\d+)/.exec(q(c))?.[1];
      const missing = nums.filter((n) => n !== topN && !c.goldShape.literals.includes(n) && c.goldShape.limit !== Number(n));
      return cueError(missing.length > 0, c);
    },
  },
  {
    name: 'int_missing_quoted',
    family: 'intent',
    doc: 'A quoted value in the question is absent from the gold SQL\'s literals, and the gold is out-voted → error.',
    vote: (c) => {
      const quoted = [...c.task.question.matchAll(/["“']([^"”']{2,})["”']/g)].map((m) => m[1]!.trim().toLowerCase());
      if (quoted.length === 0) return 0;
      const lits = c.goldShape.literals;
      return cueError(quoted.some((v) => !lits.some((l) => l.includes(v) || v.includes(l))), c);
    },
  },
  {
    name: 'int_cues_honoured',
    family: 'intent',
    doc: 'The agents agree with the gold on a question whose cues (count, average, order) the gold SQL honours → correct.',
    vote: (c) => {
      const s = q(c);
      const cue =
        (/\bhow many\b/.test(s) && has(c, 'count')) ||
        (/\baverage\b/.test(s) && has(c, 'avg')) ||
        (/\b(sorted|ordered|descending|ascending)\b/.test(s) && c.goldShape.orderBy);
      return cue && c.nAgree * 2 > c.nValid ? 1 : 0;
    },
  },
];
