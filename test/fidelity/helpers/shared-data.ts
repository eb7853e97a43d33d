import { join } from 'node:path';
import { ROOT } from '../../helpers/cli.js';

/**
 * Benchmark data beside the clone (see docs/testing.md), which users do not have: only the tests
 * under test/fidelity/ (`npm run test:fidelity`) read it, so it is named only here.
 */
export const SHARED = join(ROOT, '..', 'shared', 'datasets');
/** The full Spider data beside the clone: official verdicts, dev_gold.sql, systems not bundled. */
export const SHARED_SPIDER = join(SHARED, 'spider');
