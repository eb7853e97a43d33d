import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { ROOT, runCli } from '../helpers/cli.js';
import { launchChromium } from '../helpers/chromium.js';

/*
 * Issue 34: validate's main table (11 columns, seven of them intervals) was 1,458 px wide in the page's
 * 1,116 px box, so at a 1,280 px window Recall and Over-flag sat off-screen. Two validation sets of our
 * own and three judges' verdict files with names as long as ROSE-VEC's, opened in headless Chromium.
 */
const OUT = join(ROOT, 'test-output');
const dir = mkdtempSync(join(tmpdir(), 'sqlboard-validate-width-'));
let browser: { context: BrowserContext; close: () => Promise<void> };

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  browser = await launchChromium({ width: 1280, height: 900 });
});
afterAll(async () => browser?.close());

function writeInputs(): string[] {
  const sets = ['rose-vec-bird-like', 'rose-vec-spider-like'];
  const args: string[] = [];
  for (const s of sets) {
    const lines = Array.from({ length: 150 }, (_, i) => JSON.stringify({ id: String(i), label: i % 5 !== 0 }));
    writeFileSync(join(dir, `${s}.jsonl`), lines.join('\n') + '\n');
    args.push('--set', join(dir, `${s}.jsonl`));
  }
  ['deepseek-r1-distill-qwen-32b', 'gemini-2.5-pro-ROSE', 'o3-ROSE-thread-8'].forEach((judge, j) => {
    const lines: string[] = [];
    for (const s of sets) {
      for (let i = 0; i < 150; i++) {
        const label = i % 5 !== 0;
        // Each judge errs on its own share of items, so every metric has a real interval.
        const wrong = (i * (j + 7) + s.length) % 11 < j + 1;
        lines.push(JSON.stringify({ system: judge, subset: s, taskId: String(i), correct: wrong ? !label : label }));
      }
    }
    writeFileSync(join(dir, `${judge}.jsonl`), lines.join('\n') + '\n');
    args.push('--judge', `${judge}=${join(dir, `${judge}.jsonl`)}`);
  });
  return args;
}

describe('validate --html at a 1,280 px window', () => {
  it('the main table fits its box: every column, Recall and Over-flag included, is on screen', async () => {
    const html = join(OUT, 'validate-width.html');
    const r = await runCli(['validate', ...writeInputs(), '--iterations', '200', '--html', html]);
    expect(r.code, r.stderr).toBe(0);
    const page = await browser.context.newPage();
    await page.goto(pathToFileURL(html).href, { waitUntil: 'load' });
    const main = await page.$eval('table.data', (t) => {
      const wrap = t.closest('div.table-wrap') as HTMLElement;
      const heads = [...t.querySelectorAll('th')].map((th) => ({ text: th.textContent ?? '', right: th.getBoundingClientRect().right }));
      const firstInterval = t.querySelector('tbody td[title]')?.textContent ?? '';
      return { scroll: wrap.scrollWidth, client: wrap.clientWidth, boxRight: wrap.getBoundingClientRect().right, heads, firstInterval, viewport: window.innerWidth };
    });
    await page.screenshot({ path: join(OUT, 'validate-width.png'), fullPage: false });
    await page.close();
    expect(main.heads.map((h) => h.text)).toEqual(['Judge', 'Subset', 'n', 'Coverage', 'κ', 'Accuracy', 'MCC', 'F1', 'Precision', 'Recall', 'Over-flag']);
    expect(main.scroll).toBeLessThanOrEqual(main.client);
    for (const h of main.heads) expect(h.right, h.text).toBeLessThanOrEqual(Math.min(main.boxRight, main.viewport));
    // The interval is still in the cell's text, after its estimate (the first such cell is κ, a coefficient).
    expect(main.firstInterval).toMatch(/^-?\d\.\d{3} \[-?\d\.\d{3}, -?\d\.\d{3}\]$/);
  });
});
