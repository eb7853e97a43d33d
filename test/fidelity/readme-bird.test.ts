import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED } from './helpers/shared-data.js';
import { readmeBlocks, recipeFolder, runShell } from '../helpers/readme-blocks.js';

/*
 * The README's BIRD recipe, on ../shared's copy of BIRD mini-dev: its questions and the one database
 * there is (superhero, byte-identical to the official file), laid out as the download unpacks
 * (`MINIDEV/mini_dev_sqlite.json`, `MINIDEV/dev_databases/<db>/<db>.sqlite`), and a published
 * mini-dev prediction file as `predict_mini_dev.json`. The download lines are left out, and the score
 * line gets `--skip-missing-db` (ten databases are missing): it must exit 3 and print the README's
 * lines, which were taken from this very run.
 */
const BIRD = join(SHARED, 'bird');

describe('README BIRD recipe (on ../shared)', () => {
  it('scores a mini-dev submission as the README shows', async () => {
    const block = readmeBlocks().find((b) => b.marker === 'bird');
    expect(block).toBeDefined();
    const where = recipeFolder();
    const minidev = join(where.cwd, 'bird', 'minidev', 'MINIDEV');
    mkdirSync(join(minidev, 'dev_databases', 'superhero'), { recursive: true });
    copyFileSync(join(BIRD, 'mini_dev', 'mini_dev_sqlite.json'), join(minidev, 'mini_dev_sqlite.json'));
    copyFileSync(join(BIRD, 'database', 'superhero', 'superhero.sqlite'), join(minidev, 'dev_databases', 'superhero', 'superhero.sqlite'));
    copyFileSync(join(BIRD, 'predictions', 'mini_dev', 'TA_output', 'predict_mini_dev_gpt-4-o_cot_SQLite.json'), join(where.cwd, 'predict_mini_dev.json'));
    const lines = block!.commands.split('\n');
    const download = lines.filter((l) => /curl|unzip/.test(l));
    expect(download).toHaveLength(2);
    const script = lines
      .filter((l) => !download.includes(l))
      .map((l) => (l.startsWith('sqlboard score') ? `${l} --skip-missing-db` : l))
      .join('\n');
    const r = await runShell(`${script} && exit 1 || test $? -eq 3`, where);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('448 tasks on 10 unusable databases were not scored');
    const printed = new Set(r.out.split('\n').map((l) => l.trimEnd()));
    for (const line of block!.expected) expect(printed.has(line), `README line not printed: ${line}\n${r.out}`).toBe(true);
    rmSync(where.cwd, { recursive: true, force: true });
  });
});
