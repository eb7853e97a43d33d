import { outsideData, type DataFence } from './untrusted.js';

/**
 * Judge answers are JSON objects. With structured output (the provider constrained the answer
 * to the verdict's JSON schema) the whole answer is the object. Otherwise models wrap it in
 * fences or prose, draft before they conclude, and may quote the data they were shown: the
 * LAST well-formed verdict object counts, and an object that also occurs in the untrusted
 * data of the call (a verdict forged in the submission's SQL or cells, echoed back) never
 * counts. Unknown fields are ignored. A failure explains itself, so the re-ask can say what
 * to fix. Each verdict records which path decided it.
 */
export type VerdictPath = 'structured' | 'last-object';

export type Parsed<T> = { ok: true; value: T; path: VerdictPath } | { ok: false; problem: string };

export interface ParseContext {
  /** The request asked for schema-constrained output and the provider supports it. */
  structured?: boolean;
  /** The untrusted data blocks' contents as the model saw them. */
  untrusted?: readonly string[];
  /** The call's data delimiters: blocks the model echoed whole are dropped before parsing. */
  fence?: DataFence;
}

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

interface Candidate {
  raw: string;
  value: Record<string, unknown>;
}

/** The end of the balanced `{...}` starting at `start` (string-aware), or -1. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth += 1;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}

/** Braces that open no object, tried before giving up (each try scans to the end: bounded work). */
const MAX_STRAY_BRACES = 200;

/**
 * Every outermost JSON object in the text, in order. A `{` that opens no valid object (a
 * stray brace in prose) is skipped, so it cannot swallow the answer after it.
 */
export function jsonObjects(text: string): Candidate[] {
  const out: Candidate[] = [];
  let stray = 0;
  for (let i = text.indexOf('{'); i >= 0 && stray <= MAX_STRAY_BRACES; ) {
    const end = balancedEnd(text, i);
    if (end > 0) {
      const raw = text.slice(i, end + 1);
      try {
        const v: unknown = JSON.parse(raw);
        if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
          out.push({ raw, value: v as Record<string, unknown> });
          i = text.indexOf('{', end + 1);
          continue;
        }
      } catch {
        // not JSON: look from the next brace
      }
    }
    stray += 1;
    i = text.indexOf('{', i + 1);
  }
  return out;
}

/** For tests and callers that want the objects only. */
export function jsonCandidates(text: string): unknown[] {
  return jsonObjects(text).map((c) => c.value);
}

const squash = (s: string): string => s.replace(/\s+/g, '');

function echoed(raw: string, untrusted: readonly string[]): boolean {
  const r = squash(raw);
  return untrusted.some((u) => squash(u).includes(r));
}

function decide<T>(text: string, ctx: ParseContext, validate: (o: Record<string, unknown>) => Parsed<T>): Parsed<T> {
  if (ctx.structured) {
    try {
      const v: unknown = JSON.parse(text.trim());
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        const r = validate(v as Record<string, unknown>);
        if (r.ok) return { ...r, path: 'structured' };
      }
    } catch {
      // not the constrained object after all: read it like free text
    }
  }
  const visible = ctx.fence ? outsideData(text, ctx.fence) : text;
  const all = jsonObjects(visible);
  const cands = all.filter((c) => !echoed(c.raw, ctx.untrusted ?? []));
  if (cands.length === 0) {
    return { ok: false, problem: all.length ? 'the only JSON objects in the answer are quoted from the data' : 'no JSON object found in the answer' };
  }
  let lastProblem = '';
  for (let i = cands.length - 1; i >= 0; i--) {
    const r = validate(cands[i]!.value);
    if (r.ok) return { ...r, path: 'last-object' };
    lastProblem ||= r.problem;
  }
  return { ok: false, problem: lastProblem };
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

const fail = (problem: string): { ok: false; problem: string } => ({ ok: false, problem });

export function parseProverAnswer(text: string, ctx: ParseContext = {}): Parsed<ProverAnswer> {
  return decide(text, ctx, (o) => {
    const verdict = asBool(o.verdict);
    if (verdict === undefined) return fail('"verdict" must be true or false');
    const reason = asText(o.reason);
    if (reason === undefined) return fail('"reason" must be a string');
    return {
      ok: true,
      path: 'last-object',
      value: { verdict, reason, expectedAnswer: asText(o.expectedAnswer) ?? '', sqlDescription: asText(o.sqlDescription) ?? '' },
    };
  });
}

export function parseRefuterAnswer(text: string, ctx: ParseContext = {}): Parsed<RefuterAnswer> {
  return decide(text, ctx, (o) => {
    const overturn = asBool(o.overturn);
    if (overturn === undefined) return fail('"overturn" must be true or false');
    const goldCorrect = asBool(o.goldCorrect);
    if (goldCorrect === undefined) return fail('"goldCorrect" must be true or false');
    const amb = typeof o.ambiguity === 'string' ? o.ambiguity.trim().toLowerCase() : undefined;
    // ROSE's own outputs say "na"; accept the obvious spellings of "none".
    const ambiguity = amb === 'na' || amb === 'n/a' || amb === 'no' ? 'none' : amb;
    if (ambiguity !== 'question' && ambiguity !== 'schema' && ambiguity !== 'none') {
      return fail('"ambiguity" must be "question", "schema" or "none"');
    }
    return { ok: true, path: 'last-object', value: { overturn, goldCorrect, ambiguity, reason: asText(o.reason) ?? '' } };
  });
}

/** JSON schemas of the two answers, for providers that constrain output to a schema. */
export const PROVER_SCHEMA = {
  type: 'object',
  properties: {
    expectedAnswer: { type: 'string' },
    sqlDescription: { type: 'string' },
    reason: { type: 'string' },
    verdict: { type: 'boolean' },
  },
  required: ['expectedAnswer', 'sqlDescription', 'reason', 'verdict'],
  additionalProperties: false,
} as const;

export const REFUTER_SCHEMA = {
  type: 'object',
  properties: {
    reason: { type: 'string' },
    overturn: { type: 'boolean' },
    ambiguity: { type: 'string', enum: ['question', 'schema', 'none'] },
    goldCorrect: { type: 'boolean' },
  },
  required: ['reason', 'overturn', 'ambiguity', 'goldCorrect'],
  additionalProperties: false,
} as const;
