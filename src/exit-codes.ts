/**
 * The CLI's exit codes, the one place that defines them (docs/reference.md "Exit codes" lists the same table).
 * CI pipelines branch on these, so a code's meaning never changes once released.
 */
export const ExitCode = {
  /** Every item was scored and every `--fail-under` gate was met. */
  Complete: 0,
  /** A bug in sqlboard (also what Node uses when a process crashes with an uncaught exception). */
  Internal: 1,
  /** The user can fix the invocation or an input file; the message says what to fix. */
  UserError: 2,
  /** Results were written but are incomplete: a budget stopped the run, items are unscored, databases were skipped. */
  Partial: 3,
  /** Complete results, but a `--fail-under METRIC=VALUE` gate was not met. */
  BelowThreshold: 4,
  /** Stopped by SIGINT (Ctrl-C), 128 + 2 as shells report it; everything finished is in the run store. */
  Interrupted: 130,
  /** Stopped by SIGTERM, 128 + 15; everything finished is in the run store. */
  Terminated: 143,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * Which code wins when a run has several outcomes: an error ends the run; an incomplete run says so before
 * its gates are judged (a gate on partial results compares numbers that a complete run would change).
 */
const SEVERITY: readonly ExitCode[] = [ExitCode.Complete, ExitCode.BelowThreshold, ExitCode.Partial, ExitCode.UserError, ExitCode.Internal];

/** The more severe of two exit codes. */
export function worseExit(a: ExitCode, b: ExitCode): ExitCode {
  return SEVERITY.indexOf(a) >= SEVERITY.indexOf(b) ? a : b;
}

/** What a finished run reports about itself; commands turn it into the process's exit code. */
export interface RunOutcome {
  /** Why the results are incomplete (budget stop, unscored items, skipped databases); empty when complete. */
  partial: string[];
  /** The `--fail-under` gates that were not met, one line each; empty when all were met. */
  belowThreshold: string[];
}

export function outcomeExitCode(outcome: RunOutcome): ExitCode {
  if (outcome.partial.length > 0) return ExitCode.Partial;
  if (outcome.belowThreshold.length > 0) return ExitCode.BelowThreshold;
  return ExitCode.Complete;
}

/**
 * Raises the process's exit code to `code` unless a more severe one is already set; the CLI's commands call
 * this (the core never touches the process) so that several outcomes of one run combine by severity.
 */
export function raiseExitCode(code: ExitCode): void {
  const current = (typeof process.exitCode === 'number' ? process.exitCode : ExitCode.Complete) as ExitCode;
  process.exitCode = SEVERITY.includes(current) ? worseExit(current, code) : current;
}
