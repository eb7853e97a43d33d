import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';

// yargs reads --no-NAME as NAME = false for a string option too; score --no-store once ended in an
// internal TypeError (a boolean where the store's path belongs).
describe('--no-NAME on an option that takes a value', () => {
  for (const [verb, flag] of [
    ['score', 'store'],
    ['score', 'flags'],
    ['leaderboard', 'board'],
    // The output flags come from their own table (src/commands/report-options.ts).
    ['leaderboard', 'html'],
    ['score', 'csv'],
    ['judge', 'md'],
  ] as const) {
    it(`${verb} --no-${flag} is a usage error naming the flag, not an internal error`, async () => {
      const r = await runCli([verb, `--no-${flag}`]);
      expect(r.stderr).not.toContain('internal error');
      expect(r.stderr).toContain(`--${flag} takes a value (--no-${flag} is not an option)`);
      expect(r.code).toBe(2);
    });
  }
});
