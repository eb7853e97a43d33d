import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './helpers/cli.js';
import { bundledAuditArgs } from './helpers/bundled-audit.js';

const AUDIT = join(ROOT, 'data', 'spider', 'audit');

describe('the bundled flags are what the code makes', () => {
  it('data/spider/audit/flags.csv equals a fresh label-free audit of the 23 bundled systems, and its README quotes the count', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-flags-'));
    const r = await runCli([...bundledAuditArgs(join(dir, 'store.db')), '--out', join(dir, 'out')]);
    expect(r.code, r.stderr).toBe(0);
    const fresh = readFileSync(join(dir, 'out', 'flags.csv'), 'utf8');
    // On drift: run scripts/spider-audit-flags.sh and update the figures in data/spider/audit/README.md.
    expect(readFileSync(join(AUDIT, 'flags.csv'), 'utf8')).toBe(fresh);
    const flagged = fresh.trim().split('\n').slice(1).filter((l) => l.split(',')[1] === '0').length;
    expect(readFileSync(join(AUDIT, 'README.md'), 'utf8')).toContain(`It flags ${flagged} of 1,034 tasks`);
    expect(readFileSync(join(ROOT, 'docs', 'commands', 'score.md'), 'utf8').replace(/\s+/g, ' ')).toContain(`(${flagged} flagged tasks;`);
  }, 300_000);
});
