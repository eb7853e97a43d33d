/**
 * Human diagnostic tags read from annotators' free text. ROSE-VEC-BIRD's `reason_1`/`reason_2`
 * carry tags such as "GOLD FALSE", "AMBIGUOUS QUESTION", "AMBIGUOUS SCHEMA", "EVIDENCE FALSE"
 * in any case and with typos ("GOLD FASLE", "GOLD FLASE", "Evidence False."), next to prose
 * that merely mentions the gold ("Gold SQL misses …", which is not a tag).
 *
 * A tag is two adjacent words, each matched up to a small edit distance. Besides the four
 * literal tags, two phrasings the annotators used for the same judgement are accepted:
 * "ambiguous output" (the question does not say what to return: an ambiguous question) and
 * "ambiguous column" (a column the schema leaves unclear: an ambiguous schema), and
 * "wrong evidence" for EVIDENCE FALSE.
 */
export interface HumanTags {
  goldFalse: boolean;
  ambQuestion: boolean;
  ambSchema: boolean;
  evidenceFalse: boolean;
}

export const HUMAN_TAG_NAMES = ['gold_false', 'ambiguous_question', 'ambiguous_schema', 'evidence_false'] as const;

function noTags(): HumanTags {
  return { goldFalse: false, ambQuestion: false, ambSchema: false, evidenceFalse: false };
}

/** Optimal-string-alignment distance (Levenshtein plus adjacent transpositions: FASLE → FALSE = 1). */
export function osaDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Four-letter anchors must be exact ("told"/"hold" are not "gold"); five- and six-letter words
 * allow one typo ("fasle"), longer ones two ("ambigous", "questoin").
 */
function near(word: string, target: string): boolean {
  if (Math.abs(word.length - target.length) > 2) return false;
  return osaDistance(word, target) <= (target.length <= 4 ? 0 : target.length <= 6 ? 1 : 2);
}

const nearAny = (w: string, targets: readonly string[]): boolean => targets.some((t) => near(w, t));

/** Tags found in one or more free-text notes. */
export function parseHumanTags(...texts: (string | undefined)[]): HumanTags {
  const tags = noTags();
  for (const text of texts) {
    if (!text) continue;
    const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
    for (let i = 0; i + 1 < words.length; i++) {
      const [w1, w2] = [words[i]!, words[i + 1]!];
      if (near(w1, 'gold') && near(w2, 'false')) tags.goldFalse = true;
      else if (near(w1, 'evidence') && near(w2, 'false')) tags.evidenceFalse = true;
      else if (near(w1, 'wrong') && near(w2, 'evidence')) tags.evidenceFalse = true;
      else if (near(w1, 'ambiguous') && nearAny(w2, ['question', 'output'])) tags.ambQuestion = true;
      else if (near(w1, 'ambiguous') && nearAny(w2, ['schema', 'column'])) tags.ambSchema = true;
    }
  }
  return tags;
}

/** Tags from our JSONL format's `tags` array; unknown names are the caller's error to report. */
export function tagsFromNames(names: readonly string[]): { tags: HumanTags; unknown: string[] } {
  const tags = noTags();
  const unknown: string[] = [];
  for (const n of names) {
    if (n === 'gold_false') tags.goldFalse = true;
    else if (n === 'ambiguous_question') tags.ambQuestion = true;
    else if (n === 'ambiguous_schema') tags.ambSchema = true;
    else if (n === 'evidence_false') tags.evidenceFalse = true;
    else unknown.push(n);
  }
  return { tags, unknown };
}
