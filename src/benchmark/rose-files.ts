import { existsSync } from 'node:fs';
import { InputFileError } from '../errors.js';
import { parseJsonText, readText } from './read-json.js';

/**
 * Readers for the JSON files a ROSE run writes (github.com/CedricPei/ROSE, main.py):
 * eval_results.json, prover_output.json, refuter_output.json. Every file is a JSON array
 * appended to one entry at a time, so a retried question appears several times: the last
 * entry is the one the run's eval_results agree with, and the one we keep.
 */

/** One eval_results.json entry, reduced to the fields we use. */
export interface RoseEvalEntry {
  questionId: string;
  score: number;
  /**
   * The cascade's stage verdicts. `undefined` = the key is absent (score-only methods such as
   * EX, FLEX or llmsolver, and some early runs' execution failures); `null` = stage not run.
   */
  proverResult: boolean | null | undefined;
  refuterResult: boolean | null | undefined;
  dbId?: string;
  difficulty?: string;
  /** The human label some runs copy from the input (ROSE-VEC); not used as a verdict. */
  label?: boolean;
  /** Error text score-only baselines record (e.g. llmsolver's SQL errors). */
  error?: string;
}

/** The Prover's last answer for one question. */
export interface ProverAnswer {
  verdict?: boolean;
  reason?: string;
}

/** The Refuter's last answer for one question. `verdict` true = overturn. */
export interface RefuterAnswer {
  verdict?: boolean;
  reason?: string;
  /** Raw ambiguity text ("na", "ambiguous question", "ambiguous question, ambiguous schema", …). */
  ambiguity?: string;
  goldCorrect?: boolean;
}

function readJsonArray(file: string): unknown[] {
  const data = parseJsonText(file, readText(file));
  if (!Array.isArray(data)) {
    throw new InputFileError(file, undefined, 'expected a JSON array of per-question entries');
  }
  return data;
}

function entryObject(file: string, entry: unknown, i: number): Record<string, unknown> {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new InputFileError(file, undefined, `entry ${i} is not a JSON object`);
  }
  return entry as Record<string, unknown>;
}

function questionId(file: string, o: Record<string, unknown>, i: number): string {
  const q = o.question_id;
  if (typeof q === 'number' && Number.isFinite(q)) return String(q);
  if (typeof q === 'string' && q.trim() !== '') return q.trim();
  throw new InputFileError(file, undefined, `entry ${i} has no "question_id" (number or string)`);
}

function stageResult(file: string, o: Record<string, unknown>, key: string, i: number, qid: string): boolean | null | undefined {
  if (!(key in o)) return undefined;
  const v = o[key];
  if (v === null || typeof v === 'boolean') return v;
  throw new InputFileError(file, undefined, `entry ${i} (question_id ${qid}): "${key}" must be true, false or null, got ${JSON.stringify(v)}`);
}

/** Reads eval_results.json; duplicated question ids keep the last entry (in its position). */
export function readEvalResults(file: string): { entries: RoseEvalEntry[]; duplicates: number } {
  const byId = new Map<string, RoseEvalEntry>();
  let duplicates = 0;
  readJsonArray(file).forEach((raw, i) => {
    const o = entryObject(file, raw, i);
    const qid = questionId(file, o, i);
    const score = o.score;
    if (typeof score !== 'number' || !Number.isFinite(score)) {
      throw new InputFileError(file, undefined, `entry ${i} (question_id ${qid}): "score" must be a number, got ${JSON.stringify(score)}`);
    }
    const e: RoseEvalEntry = {
      questionId: qid,
      score,
      proverResult: stageResult(file, o, 'prover_result', i, qid),
      refuterResult: stageResult(file, o, 'refuter_result', i, qid),
    };
    if (typeof o.db_id === 'string') e.dbId = o.db_id;
    if (typeof o.difficulty === 'string') e.difficulty = o.difficulty;
    if (typeof o.label === 'boolean') e.label = o.label;
    if (typeof o.error === 'string' && o.error !== '') e.error = o.error;
    if (byId.has(qid)) {
      duplicates++;
      byId.delete(qid);
    }
    byId.set(qid, e);
  });
  return { entries: [...byId.values()], duplicates };
}

/**
 * Reads a stage output file ({question_id, result: {...}} entries) into the last `result`
 * object per question id. Backbones add or drop fields freely (Gemini sometimes answers with
 * a different schema), so fields are picked by the caller and their absence is not an error.
 */
function readStageOutput(file: string): { byId: Map<string, Record<string, unknown>>; duplicates: number } {
  const byId = new Map<string, Record<string, unknown>>();
  let duplicates = 0;
  readJsonArray(file).forEach((raw, i) => {
    const o = entryObject(file, raw, i);
    const qid = questionId(file, o, i);
    const result = o.result;
    if (typeof result !== 'object' || result === null || Array.isArray(result)) {
      throw new InputFileError(file, undefined, `entry ${i} (question_id ${qid}): "result" must be a JSON object`);
    }
    if (byId.has(qid)) duplicates++;
    byId.set(qid, result as Record<string, unknown>);
  });
  return { byId, duplicates };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

export function readProverOutput(file: string): { byId: Map<string, ProverAnswer>; duplicates: number } {
  const { byId, duplicates } = readStageOutput(file);
  const out = new Map<string, ProverAnswer>();
  for (const [qid, r] of byId) out.set(qid, { verdict: bool(r.verdict), reason: str(r.reason) });
  return { byId: out, duplicates };
}

export function readRefuterOutput(file: string): { byId: Map<string, RefuterAnswer>; duplicates: number } {
  const { byId, duplicates } = readStageOutput(file);
  const out = new Map<string, RefuterAnswer>();
  for (const [qid, r] of byId) {
    out.set(qid, {
      verdict: bool(r.verdict),
      // The "without gold" ablation's Refuter names its reason differently.
      reason: str(r.judgement) ?? str(r.reason),
      ambiguity: str(r.ambiguity),
      goldCorrect: bool(r.gold_correct),
    });
  }
  return { byId: out, duplicates };
}

export function fileIfExists(path: string): string | undefined {
  return existsSync(path) ? path : undefined;
}
