import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { ROOT, SPIDER, runCli } from './helpers/cli.js';
import { launchChromium } from './helpers/chromium.js';
import { writeSiteBoard } from './helpers/board.js';

const OUT = join(ROOT, 'test-output');
const BOARD = writeSiteBoard(mkdtempSync(join(tmpdir(), 'sqlboard-board-')));
const FLAGS = join(SPIDER, 'audit', 'flags.csv');

let browser: { context: BrowserContext; close: () => Promise<void> };

// The first run on a machine unpacks the bundled Chromium (~200 MB); on a loaded machine that can take a minute.
beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
});

interface PageCheck {
  marks: string[];
  errors: string[];
  requests: string[];
  svgSizes: { w: number; h: number }[];
  title: string;
}

/** Opens a report page, collecting console errors and every non-file request (there must be none). */
async function openReport(file: string, screenshot: string): Promise<PageCheck> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url());
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  const marks = await page.$$eval('circle.mark', (els) => els.map((e) => e.getAttribute('data-label') ?? ''));
  const svgSizes = await page.$$eval('svg.plot', (els) => els.map((e) => ({ w: e.getBoundingClientRect().width, h: e.getBoundingClientRect().height })));
  const title = await page.title();
  await page.screenshot({ path: join(OUT, screenshot), fullPage: true });
  await page.close();
  return { marks, errors, requests, svgSizes, title };
}

describe('HTML leaderboard report in headless Chromium', () => {
  it('--board: renders, no console errors or requests, one mark per analysed system', async () => {
    const html = join(OUT, 'leaderboard-board.html');
    const r = await runCli(['leaderboard', '--board', BOARD, '--n', '1534', '--flawed', '564', '--json', '--html', html]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { systems: { name: string }[] };
    const page = await openReport(html, 'leaderboard-board.png');
    expect(page.errors).toEqual([]);
    expect(page.requests).toEqual([]);
    expect(page.title).toBe('Leaderboard noise analysis');
    expect(page.marks).toHaveLength(30);
    expect(page.marks).toEqual(json.systems.map((s) => s.name));
    expect(page.svgSizes).toHaveLength(2); // accuracy-by-rank plot and pairwise matrix
    for (const s of page.svgSizes) expect(s.w * s.h).toBeGreaterThan(10_000);
  });

  it('verdict files with flags: one mark per system, matrix drawn', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-lb-html-'));
    const systems = ['system "A" <x>', 'B, the second', 'C'];
    let lines = '';
    systems.forEach((system, s) => {
      for (let t = 0; t < 1034; t++) lines += JSON.stringify({ system, taskId: String(t), correct: (t * (s + 3)) % 7 < 5 - s }) + '\n';
    });
    writeFileSync(join(dir, 'items.jsonl'), lines);
    const html = join(OUT, 'leaderboard-items.html');
    const r = await runCli(['leaderboard', join(dir, 'items.jsonl'), '--flags', FLAGS, '--html', html, '--iterations', '200']);
    expect(r.code, r.stderr).toBe(0);
    const page = await openReport(html, 'leaderboard-items.png');
    expect(page.errors).toEqual([]);
    expect(page.requests).toEqual([]);
    expect([...page.marks].sort()).toEqual([...systems].sort());
    expect(page.svgSizes).toHaveLength(2);
  });

  it('pages are readable from 360 to 1920 px: no page-wide overflow, plots shrink or scroll inside their figure', async () => {
    const html = join(OUT, 'leaderboard-items.html');
    for (const width of [360, 800, 1920]) {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width, height: 900 });
      await page.goto(pathToFileURL(html).href, { waitUntil: 'load' });
      const m = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        view: document.documentElement.clientWidth,
        figures: [...document.querySelectorAll('figure')].map((f) => ({ client: f.clientWidth, scroll: f.scrollWidth, svg: f.querySelector('svg')!.getBoundingClientRect().width })),
      }));
      await page.screenshot({ path: join(OUT, `leaderboard-items-${width}.png`), fullPage: true });
      await page.close();
      expect(m.page, `page width at ${width}px`).toBeLessThanOrEqual(m.view);
      for (const f of m.figures) {
        // Either the whole plot is in view or the figure scrolls to show the rest: nothing is cut off.
        expect(f.svg <= f.client + 1 || f.scroll > f.client, `figure at ${width}px`).toBe(true);
        if (width >= 800) expect(f.svg, `plot at ${width}px`).toBeLessThanOrEqual(f.client + 1);
      }
    }
  });

  it('a leaderboard of judge verdicts labels its axis "Judge accuracy"; with no g* band the legend dot is grey like the points', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-lb-judge-'));
    let lines = '';
    for (const system of ['a', 'b']) for (let t = 0; t < 200; t++) lines += JSON.stringify({ system, taskId: String(t), judge: 'gpt-4o-2024-08-06', correct: (t * (system === 'a' ? 3 : 5)) % 7 < 5 }) + '\n';
    writeFileSync(join(dir, 'judged.jsonl'), lines);
    const html = join(OUT, 'leaderboard-judge.html');
    const r = await runCli(['leaderboard', join(dir, 'judged.jsonl'), '--html', html, '--iterations', '100']);
    expect(r.code, r.stderr).toBe(0);
    const page = await browser.context.newPage();
    await page.goto(pathToFileURL(html).href, { waitUntil: 'load' });
    const axis = await page.$$eval('svg.interval-plot text.axis-label', (els) => els.map((e) => e.textContent));
    const fills = await page.evaluate(() => ({
      legend: [...document.querySelectorAll('svg.interval-plot .legend-mark')].map((e) => getComputedStyle(e).fill),
      marks: [...new Set([...document.querySelectorAll('svg.interval-plot circle.mark')].map((e) => getComputedStyle(e).fill))],
    }));
    await page.screenshot({ path: join(OUT, 'leaderboard-judge.png'), fullPage: true });
    await page.close();
    expect(axis).toEqual(['Judge accuracy']);
    expect(fills.marks).toHaveLength(1);
    expect(fills.legend).toEqual(fills.marks);
  });
});
