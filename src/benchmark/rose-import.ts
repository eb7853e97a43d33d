import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { InputFileError, UserError } from '../errors.js';
import type { ItemRecord } from './types.js';
import {
  fileIfExists,
  readEvalResults,
  readProverOutput,
  readRefuterOutput,
  type ProverAnswer,
  type RefuterAnswer,
  type RoseEvalEntry,
} from './rose-files.js';

/**
 * How an item went through the cascade, read off ROSE's (prover_result, refuter_result):
 * - `pred-error`: neither stage ran (the prediction failed to execute) → 0, no call;
 * - `match`: results compared equal, the Refuter ran in match mode → 1 unless it overturns;
 * - `prover-reject`: the Prover said no → 0;
 * - `prover-refuter`: the Prover said yes, the Refuter saw both results → 1 unless it overturns;
 * - `prover-only`: ProverOnly/ablation runs, the Prover's verdict is final;
 * - `score`: a score-only method (EX, FLEX, llmsolver): no stages recorded.
 */
export type RoseRoute = 'pred-error' | 'match' | 'prover-reject' | 'prover-refuter' | 'prover-only' | 'score';

/** A per-item record as `judge --items` writes it, plus the recorded stage answers. */
export interface RoseItemRecord extends ItemRecord {
  /** ROSE's own score (0 or 1; partial-credit runs may hold fractions). `correct` = score ≥ 1. */
  score: number;
  /** EX of the same prediction when the run's EX sibling directory is present, else null. */
  ex: boolean | null;
  route: RoseRoute;
  /** Refuter said the gold SQL is wrong; null for runs without a Refuter. */
  goldX: boolean | null;
  /** Refuter said the question is ambiguous; null for runs without a Refuter. */
  ambQ: boolean | null;
  /** Refuter said the schema is ambiguous; null for runs without a Refuter. */
  ambSchema: boolean | null;
  /** LLM calls the cascade made for the item (inferred from the route; ROSE records no counts). */
  calls?: number;
  proverVerdict?: boolean;
  proverReason?: string;
  /** true = the Refuter overturned the verdict. */
  refuterOverturn?: boolean;
  refuterReason?: string;
  error?: string;
}

export interface RoseImportOptions {
  system: string;
  /** Overrides the subset found in the path. */
  subset?: string;
}

export interface RoseImportSummary {
  system: string;
  source: string;
  subset?: string;
  /** `cascade` when the run recorded stage verdicts, else `score`. */
  kind: 'cascade' | 'score';
  n: number;
  correct: number;
  accuracy: number;
  goldX: number | null;
  ambQ: number | null;
  ambSchema: number | null;
  routes: Partial<Record<RoseRoute, number>>;
  calls: number | null;
  ex: { n: number; correct: number; accuracy: number } | null;
}

export interface RoseImport {
  records: RoseItemRecord[];
  summary: RoseImportSummary;
  /** Things the user should know (duplicates dropped, answers missing); the command prints them. */
  notes: string[];
}

const SUBSET_SEGMENT = /^rose-vec-[A-Za-z0-9_.-]+$/;

/** The subset a path names (a `rose-vec-<name>` segment, the innermost one), if any. */
export function subsetFromPath(path: string): string | undefined {
  const parts = resolve(path).split(sep);
  for (let i = parts.length - 1; i >= 0; i--) if (SUBSET_SEGMENT.test(parts[i]!)) return parts[i];
  return undefined;
}

/**
 * Where a ROSE run keeps EX for the same predictions: benchmarking runs have a sibling
 * `EX-<system>-eval`; ROSE-VEC runs have `<subset>/decisive/EX`.
 */
function findExDir(dir: string): string | undefined {
  const parent = dirname(dir);
  const siblings = existsSync(parent) ? readdirSync(parent).filter((name) => /^EX-.+-eval$/.test(name)) : [];
  const c = siblings.length === 1 ? join(parent, siblings[0]!) : join(dirname(parent), 'decisive', 'EX');
  return existsSync(join(c, 'eval_results.json')) ? c : undefined;
}

function route(e: RoseEvalEntry, file: string, cascade: boolean): RoseRoute {
  const p = e.proverResult;
  const r = e.refuterResult;
  // Early cascade runs wrote execution failures without the stage keys at all.
  if (p === undefined && r === undefined) return cascade ? 'pred-error' : 'score';
  if ((p ?? null) === null && (r ?? null) === null) return 'pred-error';
  if ((p ?? null) === null && typeof r === 'boolean') return 'match';
  if (p === false && (r ?? null) === null) return 'prover-reject';
  if (p === true && typeof r === 'boolean') return 'prover-refuter';
  if (p === true && (r ?? null) === null) return 'prover-only';
  throw new InputFileError(
    file,
    undefined,
    `question_id ${e.questionId}: prover_result ${JSON.stringify(p)} with refuter_result ${JSON.stringify(r)} is not a route of the cascade`,
  );
}

const CALLS: Record<RoseRoute, number | undefined> = {
  'pred-error': 0,
  match: 1,
  'prover-reject': 1,
  'prover-refuter': 2,
  'prover-only': 1,
  score: undefined,
};

function ambiguityFlags(text: string | undefined): { q: boolean; s: boolean } {
  const t = (text ?? '').toLowerCase();
  return { q: t.includes('question'), s: t.includes('schema') };
}

/** Reads one ROSE output directory into per-item records. The core never prints: notes are returned. */
export function importRoseDir(dir: string, opts: RoseImportOptions): RoseImport {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new UserError(`${dir}: not a directory (expected a ROSE output directory holding eval_results.json)`);
  }
  const evalFile = join(dir, 'eval_results.json');
  if (!existsSync(evalFile)) {
    throw new InputFileError(evalFile, undefined, 'not found: a ROSE output directory holds eval_results.json');
  }
  const notes: string[] = [];
  const { entries, duplicates } = readEvalResults(evalFile);
  if (duplicates > 0) notes.push(`${evalFile}: ${duplicates} duplicated question ids, kept the last entry of each`);

  const proverFile = fileIfExists(join(dir, 'prover_output.json'));
  // The "without gold" ablation writes its Refuter's answers under another name.
  const refuterFile = fileIfExists(join(dir, 'refuter_output.json')) ?? fileIfExists(join(dir, 'refuter_wogt_output.json'));
  const prover = proverFile ? readProverOutput(proverFile) : undefined;
  const refuter = refuterFile ? readRefuterOutput(refuterFile) : undefined;
  if (prover && prover.duplicates > 0) notes.push(`${proverFile}: ${prover.duplicates} duplicated question ids, kept the last entry of each`);
  if (refuter && refuter.duplicates > 0) notes.push(`${refuterFile}: ${refuter.duplicates} duplicated question ids, kept the last entry of each`);

  const exDir = findExDir(dir);
  const exById = new Map<string, boolean>();
  if (exDir) for (const e of readEvalResults(join(exDir, 'eval_results.json')).entries) exById.set(e.questionId, e.score >= 1);

  const subset = opts.subset ?? subsetFromPath(dir);
  const cascade = entries.some((e) => e.proverResult !== undefined || e.refuterResult !== undefined);
  let missingProver = 0;
  let missingRefuter = 0;
  const records: RoseItemRecord[] = entries.map((e) => {
    const rt = route(e, evalFile, cascade);
    const rec: RoseItemRecord = {
      system: opts.system,
      taskId: e.questionId,
      ...(subset !== undefined ? { subset } : {}),
      ...(e.dbId !== undefined ? { dbId: e.dbId } : {}),
      ...(e.difficulty !== undefined ? { difficulty: e.difficulty } : {}),
      // ROSE's accuracy is the mean score; a partial-credit score below 1 is not a full pass.
      correct: e.score >= 1,
      score: e.score,
      ex: exById.get(e.questionId) ?? null,
      route: rt,
      goldX: null,
      ambQ: null,
      ambSchema: null,
    };
    const calls = CALLS[rt];
    if (calls !== undefined) rec.calls = calls;
    if (e.error !== undefined) rec.error = e.error;
    if (typeof e.proverResult === 'boolean') {
      rec.proverVerdict = e.proverResult;
      const a: ProverAnswer | undefined = prover?.byId.get(e.questionId);
      if (a?.reason !== undefined) rec.proverReason = a.reason;
      else if (prover) missingProver++;
    }
    if (rt !== 'score') {
      // Cascade runs: the Refuter's diagnostics are known (false) wherever it did not speak.
      rec.goldX = false;
      rec.ambQ = false;
      rec.ambSchema = false;
    }
    if (typeof e.refuterResult === 'boolean') {
      rec.refuterOverturn = e.refuterResult;
      const a: RefuterAnswer | undefined = refuter?.byId.get(e.questionId);
      if (a) {
        if (a.reason !== undefined) rec.refuterReason = a.reason;
        rec.goldX = a.goldCorrect === false;
        const amb = ambiguityFlags(a.ambiguity);
        rec.ambQ = amb.q;
        rec.ambSchema = amb.s;
      } else if (refuter) missingRefuter++;
    }
    return rec;
  });
  if (missingProver > 0) notes.push(`${proverFile}: no answer for ${missingProver} items whose Prover ran`);
  if (missingRefuter > 0) notes.push(`${refuterFile}: no answer for ${missingRefuter} items whose Refuter ran`);
  const kind = cascade ? 'cascade' : 'score';
  if (kind === 'cascade' && !refuterFile && records.some((r) => r.refuterOverturn !== undefined)) {
    notes.push(`${dir}: no refuter_output.json, so GoldX/AmbQ are unknown (counted as not flagged)`);
  }
  return { records, summary: summarizeRose(records, { system: opts.system, source: dir, subset, kind }), notes };
}

function summarizeRose(
  records: RoseItemRecord[],
  meta: { system: string; source: string; subset: string | undefined; kind: 'cascade' | 'score' },
): RoseImportSummary {
  const n = records.length;
  const correct = records.filter((r) => r.correct).length;
  const routes: Partial<Record<RoseRoute, number>> = {};
  for (const r of records) routes[r.route] = (routes[r.route] ?? 0) + 1;
  const count = (f: (r: RoseItemRecord) => boolean | null): number | null =>
    meta.kind === 'score' ? null : records.filter((r) => f(r) === true).length;
  const withEx = records.filter((r) => r.ex !== null);
  const exCorrect = withEx.filter((r) => r.ex === true).length;
  return {
    system: meta.system,
    source: meta.source,
    ...(meta.subset !== undefined ? { subset: meta.subset } : {}),
    kind: meta.kind,
    n,
    correct,
    accuracy: n === 0 ? 0 : correct / n,
    goldX: count((r) => r.goldX),
    ambQ: count((r) => r.ambQ),
    ambSchema: count((r) => r.ambSchema),
    routes,
    calls: meta.kind === 'score' ? null : records.reduce((s, r) => s + (r.calls ?? 0), 0),
    ex: withEx.length === 0 ? null : { n: withEx.length, correct: exCorrect, accuracy: exCorrect / withEx.length },
  };
}
