import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGES, pagePath, regenerate } from '../scripts/gen-docs.js';
import { ROOT } from './helpers/cli.js';

describe('docs', () => {
  it('every command page’s options and examples are what scripts/gen-docs.ts makes of the CLI’s tables (run `npm run docs`)', () => {
    for (const page of PAGES) {
      const text = readFileSync(pagePath(page), 'utf8');
      expect(regenerate(page, text), `docs/commands/${page.file} is stale: run npm run docs`).toBe(text);
    }
  });

  it('a changed option table makes its page stale', () => {
    const page = PAGES.find((p) => p.file === 'stats.md')!;
    const text = readFileSync(pagePath(page), 'utf8');
    const edited = text.replace('| `--n` | number |  | Benchmark size N (tasks) |', '| `--n` | number |  | Benchmark size |');
    expect(edited).not.toBe(text);
    expect(regenerate(page, edited)).toBe(text);
  });

  it('the README is at most 150 lines and every file it links to exists', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(151);
    const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((l) => !/^https?:/.test(l));
    expect(links.length).toBeGreaterThan(8);
    for (const l of links) expect(existsSync(join(ROOT, l)), l).toBe(true);
    // Every docs page the command pages link to, too.
    for (const page of PAGES) {
      const text = readFileSync(pagePath(page), 'utf8');
      for (const m of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = join(dirname(pagePath(page)), m[1]!);
        if (/^https?:/.test(m[1]!)) continue;
        expect(existsSync(target), `${page.file} → ${m[1]}`).toBe(true);
      }
    }
  });
});
