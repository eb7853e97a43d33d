/**
 * sqlboard as a library: one function per command, taking an options object and returning the
 * report model the CLI renders (`report`), the object `--json` prints (`json`) and the notes the CLI
 * prints on stderr (`notes`). The CLI is parse → call → render on top of these (src/commands/).
 *
 * Each function loads its command's code on first call, so importing the package stays light.
 */
export type { CommandResult, GatedResult, ProgressHook, RunHooks, WaveProgress } from './api/types.js';
export type { Report, Section, Table, Column, Cell, IntervalValue } from './report/model.js';
export type { StatsOptions, GapOptions, PrevalenceOptions, DetectorOptions, IntervalOptions, AgreementOptions } from './api/stats.js';
export type { LeaderboardOptions, LeaderboardResult } from './api/leaderboard.js';
export type { ImportRoseOptions } from './api/import-rose.js';
export type { ScoreOptions } from './api/score.js';
export type { JudgeOptions } from './api/judge.js';
export type { AuditOptions, AuditResult, AuditWaiting } from './api/audit.js';
export type { ValidateOptions } from './api/validate.js';
export type { BatchStatusOptions } from './api/batch-status.js';
export type { LlmCallOptions, BatchOptions } from './api/llm-options.js';
export type { ValidateResult } from './validate/validate.js';
export { UserError, InputFileError } from './errors.js';

import type { CommandResult, GatedResult } from './api/types.js';
import type { StatsOptions } from './api/stats.js';
import type { LeaderboardOptions, LeaderboardResult } from './api/leaderboard.js';
import type { ImportRoseOptions } from './api/import-rose.js';
import type { ScoreOptions } from './api/score.js';
import type { JudgeOptions } from './api/judge.js';
import type { AuditOptions, AuditResult, AuditWaiting } from './api/audit.js';
import type { ValidateOptions } from './api/validate.js';
import type { BatchStatusOptions } from './api/batch-status.js';
import type { ValidateResult } from './validate/validate.js';

/** Noise-aware statistics (`sqlboard stats <statistic>`): gap, prevalence, detector, interval, agreement. */
export async function stats(opts: StatsOptions): Promise<CommandResult> {
  return (await import('./api/stats.js')).stats(opts);
}

/** Ranks systems with intervals and significance, from per-item verdict files or a published board (`sqlboard leaderboard`). */
export async function leaderboard(opts: LeaderboardOptions): Promise<LeaderboardResult> {
  return (await import('./api/leaderboard.js')).leaderboard(opts);
}

/** Imports a recorded ROSE run as per-item verdicts (`sqlboard import rose`). */
export async function importRose(opts: ImportRoseOptions): Promise<CommandResult> {
  return (await import('./api/import-rose.js')).importRose(opts);
}

/** EX, Soft-F1, EM, VES and R-VES per system as the official BIRD / Spider evaluators define them (`sqlboard score`); no options: the bundled Spider dev set. */
export async function score(opts: ScoreOptions = {}): Promise<GatedResult> {
  return (await import('./api/score.js')).score(opts);
}

/** ROSE-style Prover/Refuter LLM judge over each system's predictions (`sqlboard judge`). */
export async function judge(opts: JudgeOptions): Promise<GatedResult> {
  return (await import('./api/judge.js')).judge(opts);
}

/** SALUS-style weak supervision that flags wrong gold SQL (`sqlboard audit`); `waiting` when LLM agents' batches are not back yet. */
export async function audit(opts: AuditOptions): Promise<AuditResult | AuditWaiting> {
  return (await import('./api/audit.js')).audit(opts);
}

/** Compares judges with human labels on validation sets (`sqlboard validate`). */
export async function validate(opts: ValidateOptions): Promise<CommandResult<ValidateResult & Record<string, unknown>>> {
  return (await import('./api/validate.js')).validate(opts);
}

/** The run store's provider batches and their last polled state (`sqlboard batch status`). */
export async function batchStatus(opts: BatchStatusOptions = {}): Promise<CommandResult> {
  return (await import('./api/batch-status.js')).batchStatus(opts);
}
