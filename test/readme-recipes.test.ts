import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { HELP_EXAMPLES, type HelpExample } from '../src/commands/examples.js';
import { readmeBlocks, recipeFolder, runShell } from './helpers/readme-blocks.js';

/*
 * The README's recipes and every --help example run as written, in a folder that looks like a fresh
 * clone (bundled data only; nothing from the benchmark data beside the clone). A README block must exit 0 and print every line of
 * the output it shows (abridged: lines with "…" are skipped). Blocks marked `<!-- recipe: install -->`
 * are how this test is set up; `<!-- recipe: bird -->` needs a download and runs in
 * test/fidelity/readme-bird.test.ts on ../shared's copy.
 */
const where = recipeFolder();
const blocks = readmeBlocks();
afterAll(() => rmSync(where.cwd, { recursive: true, force: true }));

describe('README recipes', () => {
  it('has the blocks the README promises: install, Spider, BIRD, two leaderboards, validation', () => {
    expect(blocks.map((b) => b.marker ?? 'run')).toEqual(['install', 'run', 'bird', 'run', 'run', 'run']);
    for (const b of blocks.filter((x) => x.marker === undefined)) expect(b.expected.length, `block at line ${b.line}`).toBeGreaterThan(1);
  });

  for (const block of blocks.filter((b) => b.marker === undefined)) {
    it(`the block at README line ${block.line} runs and prints what the README shows`, async () => {
      const r = await runShell(block.commands, where);
      expect(r.code, r.out).toBe(0);
      const printed = new Set(r.out.split('\n').map((l) => l.trimEnd()));
      for (const line of block.expected) expect(printed.has(line), `README line not printed: ${line}\n--- output:\n${r.out}`).toBe(true);
    }, 600_000);
  }
});

describe('--help examples', () => {
  for (const [verb, examples] of Object.entries(HELP_EXAMPLES) as [string, HelpExample[]][]) {
    it(`${verb}: every example runs as written and exits 0`, async () => {
      for (const e of examples) {
        const r = await runShell(e.command.replace(/\$0/g, 'sqlboard'), where);
        expect(r.code, `${e.command}\n${r.out}`).toBe(0);
        expect(r.out.trim().length, e.command).toBeGreaterThan(0);
      }
    }, 600_000);
  }
});
