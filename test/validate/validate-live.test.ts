import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, SPIDER } from '../helpers/cli.js';
import { NO_DATABASE_ITEM, writeLiveReplay, writeLiveSet } from './live-set-fixture.js';

/*
 * A live judge over a validation set of our own on real Spider dev databases, answered by the
 * replay provider (recorded responses, ./live-set-fixture.ts): every item goes through the real cascade and
 * execution engine, and its verdict joins the human labels like a recorded judge's.
 */
const dir = mkdtempSync(join(tmpdir(), 'validate-live-'));
const setFile = writeLiveSet(join(dir, 'live-set.jsonl'), [NO_DATABASE_ITEM]);
const replay = writeLiveReplay(join(dir, 'replay.jsonl'));

describe('validate with a live judge (replay provider, real Spider databases)', () => {
  it('judges the items, joins the human labels and reports coverage', async () => {
    const r = await runCli([
      'validate',
      '--set', setFile,
      '--provider', 'replay',
      '--replay', replay,
      '--model', 'gpt-4o-2024-08-06',
      '--db-root', join(SPIDER, 'database'),
      '--store', join(dir, 'run.db'),
      '--iterations', '50',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.judges).toHaveLength(1);
    const j = out.judges[0];
    expect(j.name).toMatch(/^gpt-4o-2024-08-06/);
    expect(j.subsets.all).toMatchObject({ n: 3, items: 4 });
    expect(j.subsets.all.coverage).toBe(0.75);
    expect(j.subsets.all.confusion).toEqual({ tp: 1, fp: 0, fn: 1, tn: 1 });
    expect(j.cost.callsPerItem).toBeCloseTo(2 / 3, 10);
    expect(r.stderr).toMatch(/1 items have no database/);
  }, 300_000);

  it('user errors exit 2 with a message', async () => {
    const bad = await runCli(['validate', '--set', setFile, '--judge', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/expected NAME=SOURCE/);
    const missing = await runCli(['validate', '--set', setFile, '--judge', `x=${join(dir, 'nope')}`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/does not exist/);
    const verdicts = join(dir, 'a.jsonl');
    writeFileSync(verdicts, '{"system":"a","taskId":"1","correct":true}\n');
    const ens = await runCli(['validate', '--set', setFile, '--judge', `a=${verdicts}`, '--ensemble', 'majority:a,b']);
    expect(ens.code).toBe(2);
    expect(ens.stderr).toMatch(/no judge named b/);
  }, 300_000);
});
