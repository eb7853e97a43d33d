import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

/*
 * The house rules for imports (.dependency-cruiser.cjs, see DEVELOPERS.md): no cycles, stats/ pure,
 * report/ free of CLI libraries, the core never imports the CLI, each folder imports only from below.
 */

const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

function cruise(cwd: string): { code: number | null; violations: Violation[]; stderr: string } {
  const r = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const out = JSON.parse(r.stdout) as { summary: { violations: Violation[] } };
  return { code: r.status, violations: out.summary.violations, stderr: r.stderr };
}

describe('import rules', () => {
  it('src/ has no import cycle and no layering violation', () => {
    const { violations } = cruise(ROOT);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  });

  it('each rule catches what it forbids (a small tree that breaks every one)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-arch-'));
    const files: Record<string, string> = {
      'src/judge/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'src/judge/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
      'src/stats/io.ts': "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
      'src/stats/loader.ts': "import { x } from '../benchmark/load.js';\nexport const y = x;\n",
      'src/benchmark/load.ts': 'export const x = 1;\n',
      'src/report/cli.ts': "import yargs from 'yargs';\nexport const y = yargs;\n",
      'src/execution/up.ts': "import { c } from '../commands/c.js';\nimport { v } from '../judge/v.js';\nexport const u = [c, v];\n",
      'src/judge/v.ts': 'export const v = 1;\n',
      'src/commands/c.ts': 'export const c = 1;\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    copyFileSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    const { violations } = cruise(dir);
    rmSync(dir, { recursive: true, force: true });
    const seen = new Set(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`));
    for (const expected of [
      'no-circular: src/judge/a.ts → src/judge/b.ts',
      'stats-pure: src/stats/io.ts → fs',
      'stats-only-benchmark-types: src/stats/loader.ts → src/benchmark/load.ts',
      'report-no-cli-libs: src/report/cli.ts → yargs',
      'core-not-cli: src/execution/up.ts → src/commands/c.ts',
      'layer-execution: src/execution/up.ts → src/judge/v.ts',
    ]) {
      expect([...seen]).toContain(expected);
    }
  });
});
