/**
 * sqlboard as a library: one function per command, taking an options object and returning the
 * report model the CLI renders (`report`), the object `--json` prints (`json`) and the notes the CLI
 * prints on stderr (`notes`). The CLI is parse → call → render on top of these (src/commands/).
 *
 * Each function loads its command's code on first call, so importing the package stays light.
 */
export type { CommandResult, ProgressHook, RunHooks } from './api/types.js';
export type { Report, Section, Table, Column, Cell, IntervalValue } from './report/model.js';
export type { StatsOptions, GapOptions, PrevalenceOptions, DetectorOptions, IntervalOptions, AgreementOptions } from './api/stats.js';
export type { LeaderboardOptions, LeaderboardResult } from './api/leaderboard.js';
export type { ImportRoseOptions } from './api/import-rose.js';
export { UserError, InputFileError } from './errors.js';

import type { CommandResult } from './api/types.js';
import type { StatsOptions } from './api/stats.js';
import type { LeaderboardOptions, LeaderboardResult } from './api/leaderboard.js';
import type { ImportRoseOptions } from './api/import-rose.js';

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
