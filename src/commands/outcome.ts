import { outcomeExitCode, raiseExitCode, type RunOutcome } from '../exit-codes.js';

/**
 * Ends a command that wrote its results: says on stderr why they are partial or which --fail-under gates were
 * not met, and sets the exit code (src/exit-codes.ts) without throwing, so every output is already written.
 */
export function finishRun(outcome: RunOutcome): void {
  for (const why of outcome.partial) process.stderr.write(`sqlboard: partial result: ${why}\n`);
  for (const line of outcome.belowThreshold) process.stderr.write(`sqlboard: ${line}\n`);
  raiseExitCode(outcomeExitCode(outcome));
}

/** A library run's notes (src/api/types.ts), one `sqlboard: ` line each on stderr. */
export function printNotes(notes: readonly string[]): void {
  for (const note of notes) process.stderr.write(`sqlboard: ${note}\n`);
}
