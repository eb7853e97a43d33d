/**
 * An error the user can cause and fix (bad file, unknown id, bad flag).
 * The CLI prints its message without a stack trace and exits with `exitCode`.
 */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
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
