/**
 * Judge answers are JSON objects, but models wrap them in fences or prose.
 * We take the first candidate object that validates; unknown fields are
 * ignored. A failure explains itself, so the re-ask can say what to fix.
 */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

export interface ProverAnswer {
  expectedAnswer: string;
  sqlDescription: string;
  reason: string;
  verdict: boolean;
}

export type Ambiguity = 'question' | 'schema' | 'none';

export interface RefuterAnswer {
  reason: string;
  overturn: boolean;
  ambiguity: Ambiguity;
  goldCorrect: boolean;
}

/** Every JSON object in the text, most likely first: the whole text, fenced blocks, then balanced {...} spans. */
export function jsonCandidates(text: string): unknown[] {
  const sources: string[] = [text.trim()];
  for (const m of text.matchAll(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g)) sources.push(m[1].trim());
  sources.push(...balancedObjects(text));
  const out: unknown[] = [];
  for (const s of sources) {
    if (!s.startsWith('{')) continue;
    try {
      const v: unknown = JSON.parse(s);
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(v);
    } catch {
      // not JSON; try the next candidate
    }
  }
  return out;
}

/** Top-level `{...}` spans, aware of strings so braces inside them do not count. */
function balancedObjects(text: string): string[] {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"' && depth > 0) inString = true;
    else if (ch === '{') {
      if (depth === 0) start = i;
      depth += 1;
    } else if (ch === '}' && depth > 0) {
      depth -= 1;
      if (depth === 0) spans.push(text.slice(start, i + 1));
    }
  }
  return spans;
}

function asBool(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (s === 'true') return true;
    if (s === 'false') return false;
  }
  return undefined;
}

function asText(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function firstValid<T>(text: string, validate: (o: Record<string, unknown>) => Parsed<T>): Parsed<T> {
  const cands = jsonCandidates(text);
  if (cands.length === 0) return { ok: false, problem: 'no JSON object found in the answer' };
  let firstProblem = '';
  for (const c of cands) {
    const r = validate(c as Record<string, unknown>);
    if (r.ok) return r;
    firstProblem ||= r.problem;
  }
  return { ok: false, problem: firstProblem };
}

export function parseProverAnswer(text: string): Parsed<ProverAnswer> {
  return firstValid(text, (o) => {
    const verdict = asBool(o.verdict);
    if (verdict === undefined) return { ok: false, problem: '"verdict" must be true or false' };
    const reason = asText(o.reason);
    if (reason === undefined) return { ok: false, problem: '"reason" must be a string' };
    return {
      ok: true,
      value: { verdict, reason, expectedAnswer: asText(o.expectedAnswer) ?? '', sqlDescription: asText(o.sqlDescription) ?? '' },
    };
  });
}

export function parseRefuterAnswer(text: string): Parsed<RefuterAnswer> {
  return firstValid(text, (o) => {
    const overturn = asBool(o.overturn);
    if (overturn === undefined) return { ok: false, problem: '"overturn" must be true or false' };
    const goldCorrect = asBool(o.goldCorrect);
    if (goldCorrect === undefined) return { ok: false, problem: '"goldCorrect" must be true or false' };
    const amb = typeof o.ambiguity === 'string' ? o.ambiguity.trim().toLowerCase() : undefined;
    // ROSE's own outputs say "na"; accept the obvious spellings of "none".
    const ambiguity = amb === 'na' || amb === 'n/a' || amb === 'no' ? 'none' : amb;
    if (ambiguity !== 'question' && ambiguity !== 'schema' && ambiguity !== 'none') {
      return { ok: false, problem: '"ambiguity" must be "question", "schema" or "none"' };
    }
    return { ok: true, value: { overturn, goldCorrect, ambiguity, reason: asText(o.reason) ?? '' } };
  });
}
