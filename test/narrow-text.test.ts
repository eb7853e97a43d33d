import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NARROW_TEXT } from '../scripts/narrow-text.js';
import { ROOT } from './helpers/cli.js';

/*
 * The bundled CLI measures NARROW_TEXT itself (one column per character) and loads string-width only
 * for other text (scripts/bundle-cli.ts). That holds only if every string-width copy the bundle
 * wraps, the one each importer resolves, agrees on every character of it, alone and side by side.
 */

const IMPORTERS = ['yargs', 'cliui', 'wrap-ansi', 'cli-table3'];
const narrow = Array.from({ length: 0x10000 }, (_, cp) => String.fromCharCode(cp)).filter((c) => NARROW_TEXT.test(c));

describe('NARROW_TEXT', () => {
  it('covers the text of the help and tables: ASCII, Latin, Greek, dashes, ≥, →, ×, box drawing', () => {
    expect(narrow.length).toBeGreaterThan(2000);
    expect(NARROW_TEXT.test('Compare judges (κ, accuracy, MCC, F1) — p ≥ 5% → 3×2 · └─┘ naïve')).toBe(true);
    for (const other of ['\x1b[31m', '\t', 'e\u0301', '中', '😀', '\u200b', '\u00ad', '©']) expect(NARROW_TEXT.test(other), other).toBe(false);
  });

  for (const importer of IMPORTERS) {
    it(`is one column per character for the string-width that ${importer} loads`, async () => {
      const file = createRequire(join(ROOT, 'node_modules', importer, 'package.json')).resolve('string-width');
      const mod = (await import(pathToFileURL(file).href)) as { default: (s: string) => number };
      const stringWidth = mod.default;
      const wrong = narrow.filter((c) => stringWidth(c) !== 1 || stringWidth(`a${c}${c}b`) !== 4);
      expect(wrong.map((c) => c.charCodeAt(0).toString(16))).toEqual([]);
      expect(stringWidth(narrow.join(''))).toBe(narrow.length);
    });
  }
});
