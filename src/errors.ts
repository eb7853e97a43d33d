import { ExitCode } from './exit-codes.js';

/**
 * An error the user can cause and fix (bad file, unknown id, bad flag).
 * The CLI prints its message without a stack trace and exits with `exitCode` (ExitCode.UserError, 2).
 */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = ExitCode.UserError) {
    super(message);
    this.name = 'UserError';
    this.exitCode = exitCode;
  }
}

/** A user error tied to a place in an input file, so the message says where to look. */
export class InputFileError extends UserError {
  readonly file: string;
  readonly line: number | undefined;
  constructor(file: string, line: number | undefined, problem: string) {
    super(`${file}${line !== undefined ? `:${line}` : ''}: ${problem}`);
    this.name = 'InputFileError';
    this.file = file;
    this.line = line;
  }
}

/**
 * Runs core code whose RangeErrors mean impossible input (a count above n, both of two
 * exclusive options); the CLI reports those as the user's to fix.
 */
export function rangeErrorsAsUserErrors<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof RangeError) throw new UserError(e.message);
    throw e;
  }
}
