import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SHARED } from '../fidelity/helpers/shared-data.js';

/**
 * globalSetup of `npm run test:fidelity`: its tests compare sqlboard with the official scripts' own
 * verdicts and published data, which are not in the repository. Without them the suite fails at
 * once with one line saying what it needs (it never skips silently); docs/testing.md has the layout.
 */
const NEEDED = ['spider/official-verdicts', 'spider/predictions/ta-sql', 'bird/dev.json', 'bird/mini_dev', 'bird-leaderboard', 'rose/data', 'rose/output', 'salus/ground_truth', 'salus/predictions'];

export default function setup(): void {
  const missing = NEEDED.filter((p) => !existsSync(join(SHARED, p)));
  if (missing.length === 0) return;
  const where = relative(process.cwd(), SHARED) || SHARED;
  // One line and a failing exit, before any test or build: a stack trace here would only bury it.
  process.stderr.write(`npm run test:fidelity needs the benchmark data in ${where} (${SHARED}); missing: ${missing.join(', ')}. Layout and sources: docs/testing.md\n`);
  process.exit(1);
}
