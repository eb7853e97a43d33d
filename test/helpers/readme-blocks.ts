import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.js';

/** One ```sh block of the README, the ```text block that follows it (what it prints), and its marker. */
export interface ReadmeBlock {
  /** 1-based line of the opening fence. */
  line: number;
  commands: string;
  expected: string[];
  /** From an HTML comment `<!-- recipe: NAME … -->` on the line before the block. */
  marker?: string;
}

export function readmeBlocks(): ReadmeBlock[] {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```sh') continue;
    const end = lines.indexOf('```', i + 1);
    const marker = /^<!-- recipe: (\S+)/.exec(lines[i - 1] ?? '')?.[1];
    let expected: string[] = [];
    if (lines[end + 1] === '```text') {
      const close = lines.indexOf('```', end + 2);
      // Abridged output: every line shown is a line of the real output, except those marked "…".
      expected = lines.slice(end + 2, close).filter((l) => !l.includes('…')).map((l) => l.trimEnd());
    }
    blocks.push({ line: i + 1, commands: lines.slice(i + 1, end).join('\n'), expected, ...(marker ? { marker } : {}) });
    i = end;
  }
  return blocks;
}

/**
 * A fresh folder under test-output/ (inside the repository, so the source's `--import tsx` resolves)
 * that looks like a clone to the recipes: `data/` and `validation-sets/` linked, and `sqlboard` on
 * PATH running the CLI from source.
 */
export function recipeFolder(): { cwd: string; env: NodeJS.ProcessEnv } {
  mkdirSync(join(ROOT, 'test-output'), { recursive: true });
  const cwd = mkdtempSync(join(ROOT, 'test-output', 'recipes-'));
  for (const d of ['data', 'validation-sets']) symlinkSync(join(ROOT, d), join(cwd, d));
  const bin = join(cwd, '.bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'sqlboard'), `#!/bin/sh\nexec "${process.execPath}" --import tsx "${join(ROOT, 'src', 'cli.ts')}" "$@"\n`);
  chmodSync(join(bin, 'sqlboard'), 0o755);
  return { cwd, env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` } };
}

/** Runs shell text with bash (-e: the first failing command fails the block), as a reader pastes it. */
export function runShell(script: string, where: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd: where.cwd, env: where.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}
