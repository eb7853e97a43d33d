import type { ExecResult } from '../execution/types.js';
import type { Task } from '../benchmark/types.js';
import { BudgetExceeded } from '../llm/budget.js';
import { fatalProviderError } from '../llm/fatal-provider-error.js';
import type { LlmClient } from '../llm/client.js';
import { PROVER_SCHEMA, REFUTER_SCHEMA, parseProverAnswer, parseRefuterAnswer } from './parse-output.js';
import type { Ambiguity, RefuterAnswer, VerdictPath } from './parse-output.js';
import { previewResult, DEFAULT_PREVIEW_ROWS } from './preview.js';
import { evidenceText, type PromptTemplate } from './prompts.js';
import { ProviderError } from '../llm/providers/types.js';
import { sqlForJudge } from './sql-view.js';
import { DEFAULT_MAX_REASKS } from './reasks.js';
import { emptyUsage, runStage } from './stages.js';
import type { Usage } from './stages.js';

/**
 * The path an item took through the cascade (same names as `import rose` uses):
 * - `missing` / `pred-error`: no prediction, or it failed to execute → 0, no call.
 * - `match`: results equal under the comparator; the Refuter in match mode looked
 *   for accidental agreement → 1 unless it overturned.
 * - `prover-reject`: results differ and the Prover said false → 0.
 * - `prover-refuter`: the Prover said true; the Refuter, seeing both results,
 *   → 1 unless it overturned.
 * - `prover`: the Prover gave no usable answer (the item is unscored).
 * - `not-judged`: the run stopped (--max-cost-usd / --max-calls) before this item.
 * An item whose deciding stage gave no usable answer (invalid output after the
 * re-asks, or a provider failure) keeps the route it was on, has `correct: null`
 * and says why in `unscored`.
 */
export type Route = 'missing' | 'pred-error' | 'match' | 'prover-reject' | 'prover-refuter' | 'prover' | 'not-judged';

export interface JudgeInput {
  task: Task;
  /** undefined: the system has no prediction for this task. */
  predSql: string | undefined;
  gold: ExecResult;
  /** undefined when predSql is. */
  pred: ExecResult | undefined;
}

export interface JudgedItem extends Usage {
  taskId: string;
  dbId: string;
  /** Execution accuracy under the cascade's comparator. */
  ex: boolean;
  /** The judge's verdict; null when unscored or not judged. */
  correct: boolean | null;
  route: Route;
  /** The Refuter said the gold SQL is wrong (goldCorrect false). */
  goldX: boolean;
  /** The Refuter said the question is ambiguous. */
  ambQ: boolean;
  /** The Refuter said the schema is ambiguous. */
  ambSchema: boolean;
  /** Why there is no verdict (shown apart; never counted right or wrong). */
  unscored?: string;
  proverVerdict?: boolean;
  proverReason?: string;
  proverExpectedAnswer?: string;
  proverSqlDescription?: string;
  /** Hash of prompts/prover.md as sent. */
  proverPromptHash?: string;
  /** How the Prover's verdict was read: schema-constrained output, or the last verdict object of free text. */
  proverVerdictPath?: VerdictPath;
  refuterMode?: 'match' | 'full';
  /** true = the Refuter overturned the verdict. */
  refuterOverturn?: boolean;
  refuterReason?: string;
  ambiguity?: Ambiguity;
  /** Hash of prompts/refuter.md or refuter-match.md as sent. */
  refuterPromptHash?: string;
  /** How the Refuter's verdict was read (see proverVerdictPath). */
  refuterVerdictPath?: VerdictPath;
  predError?: string;
  goldError?: string;
  /**
   * The provider failed (not the model's answer): not stored as a verdict, so a
   * re-run tries again.
   */
  transient?: boolean;
}

export interface JudgePrompts {
  prover: PromptTemplate;
  refuter: PromptTemplate;
  refuterMatch: PromptTemplate;
}

export interface CascadeDeps {
  client: LlmClient;
  prompts: JudgePrompts;
  /** Schema text for a database id (memoise: called once per item). */
  schemaFor: (dbId: string) => string;
  /** The comparator deciding "results equal" (the `bird` one). */
  equal: (gold: ExecResult, pred: ExecResult) => boolean;
  /** Result rows shown to the judge (default DEFAULT_PREVIEW_ROWS). */
  previewRows?: number;
  /** Re-asks after an invalid answer, per stage (default DEFAULT_MAX_REASKS). */
  maxReasks?: number;
}

export { DEFAULT_MAX_REASKS } from './reasks.js';

/** Characters of the Prover's reason forwarded to the Refuter (as data). */
export const MAX_FORWARDED_REASON_CHARS = 2000;

const PROVER_ANSWER = { name: 'prover_verdict', schema: PROVER_SCHEMA };
const REFUTER_ANSWER = { name: 'refuter_verdict', schema: REFUTER_SCHEMA };

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…[+${text.length - max} chars]` : text;
}

function base(input: JudgeInput, ex: boolean): JudgedItem {
  const item: JudgedItem = {
    taskId: input.task.id,
    dbId: input.task.dbId,
    ex,
    correct: null,
    route: 'not-judged',
    goldX: false,
    ambQ: false,
    ambSchema: false,
    ...emptyUsage(),
  };
  if (input.gold.status !== 'ok') item.goldError = input.gold.error ?? input.gold.status;
  if (input.pred && input.pred.status !== 'ok') item.predError = input.pred.error ?? input.pred.status;
  return item;
}

/** Execution accuracy: both queries ran and their results are equal under the comparator. */
function exOf(input: JudgeInput, deps: CascadeDeps): boolean {
  return input.pred?.status === 'ok' && input.gold.status === 'ok' && deps.equal(input.gold, input.pred);
}

/** An item the run did not judge (it stopped first): no verdict, and `unscored` says why. */
export function notJudgedItem(input: JudgeInput, deps: CascadeDeps, unscored: string): JudgedItem {
  return { ...base(input, exOf(input, deps)), unscored };
}

/** Judges one (system, task) item. Throws BudgetExceeded when the run must stop, UserError on a bad key or model. */
export async function judgeItem(input: JudgeInput, deps: CascadeDeps): Promise<JudgedItem> {
  const { task, predSql, gold, pred } = input;
  if (predSql === undefined || pred === undefined) return { ...base(input, false), correct: false, route: 'missing' };
  if (pred.status !== 'ok') return { ...base(input, false), correct: false, route: 'pred-error' };

  const ex = exOf(input, deps);
  const item = base(input, ex);
  const maxReasks = deps.maxReasks ?? DEFAULT_MAX_REASKS;
  const rows = deps.previewRows ?? DEFAULT_PREVIEW_ROWS;
  // The benchmark's own text is trusted; everything the submission (or a model) wrote is data.
  const trusted = { schema: deps.schemaFor(task.dbId), question: task.question, evidence: evidenceText(task.evidence) };
  const sqls = { pred_sql: sqlForJudge(predSql), gold_sql: sqlForJudge(task.goldSql) };
  let stage: Route = ex ? 'match' : 'prover';
  try {
    if (ex) {
      const r = await runStage(deps.client, deps.prompts.refuterMatch, { trusted, untrusted: sqls, responseSchema: REFUTER_ANSWER }, parseRefuterAnswer, maxReasks, item);
      if (!r.ok) return { ...item, route: 'match', unscored: r.problem };
      return refuterVerdict(item, r.answer, r.path, 'match', deps.prompts.refuterMatch.hash);
    }
    const predPreview = previewResult(pred, { maxRows: rows });
    const proverData = { pred_sql: sqls.pred_sql, pred_result: predPreview };
    const p = await runStage(deps.client, deps.prompts.prover, { trusted, untrusted: proverData, responseSchema: PROVER_ANSWER }, parseProverAnswer, maxReasks, item);
    if (!p.ok) return { ...item, route: 'prover', unscored: p.problem };
    item.proverVerdict = p.answer.verdict;
    item.proverReason = p.answer.reason;
    item.proverExpectedAnswer = p.answer.expectedAnswer;
    item.proverSqlDescription = p.answer.sqlDescription;
    item.proverPromptHash = deps.prompts.prover.hash;
    item.proverVerdictPath = p.path;
    if (!p.answer.verdict) return { ...item, correct: false, route: 'prover-reject' };
    stage = 'prover-refuter';
    const refuterData = {
      ...sqls,
      pred_result: predPreview,
      gold_result: previewResult(gold, { maxRows: rows }),
      prover_reason: clip(p.answer.reason, MAX_FORWARDED_REASON_CHARS),
    };
    const r = await runStage(deps.client, deps.prompts.refuter, { trusted, untrusted: refuterData, responseSchema: REFUTER_ANSWER }, parseRefuterAnswer, maxReasks, item);
    if (!r.ok) return { ...item, route: 'prover-refuter', unscored: r.problem };
    return refuterVerdict(item, r.answer, r.path, 'full', deps.prompts.refuter.hash);
  } catch (e) {
    if (e instanceof BudgetExceeded) throw e;
    if (e instanceof ProviderError) {
      const fatal = fatalProviderError(e, deps.client, deps.client.model);
      if (fatal) throw fatal;
      return { ...item, route: stage, unscored: `provider error: ${e.message}`, transient: true };
    }
    throw e;
  }
}

function refuterVerdict(item: JudgedItem, a: RefuterAnswer, path: VerdictPath, mode: 'match' | 'full', promptHash: string): JudgedItem {
  return {
    ...item,
    correct: !a.overturn,
    route: mode === 'match' ? 'match' : 'prover-refuter',
    goldX: !a.goldCorrect,
    ambQ: a.ambiguity === 'question',
    ambSchema: a.ambiguity === 'schema',
    refuterMode: mode,
    refuterOverturn: a.overturn,
    refuterReason: a.reason,
    ambiguity: a.ambiguity,
    refuterPromptHash: promptHash,
    refuterVerdictPath: path,
  };
}
