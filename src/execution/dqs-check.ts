import Database from 'better-sqlite3';
import { fileURLToPath } from 'node:url';
import { UserError } from '../errors.js';
import { dqsExtensionFile, dqsUnavailable, enableDqs } from './dqs.js';

let checked = false;

/**
 * Checks once per process, before any query runs, that this installation's SQLite reads
 * double-quoted strings as the official evaluators' does (dqs.ts), on an in-memory connection: a
 * binary or installation without them stops the run with a UserError saying how to fix it, and
 * never scores.
 */
export function assertDqs(): void {
  if (checked) return;
  const db = new Database(':memory:');
  try {
    const failed = enableDqs(db, dqsExtensionFile(fileURLToPath(import.meta.url)));
    if (failed !== undefined) throw new UserError(dqsUnavailable(failed));
  } finally {
    db.close();
  }
  checked = true;
}
