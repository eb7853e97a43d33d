import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { devGoldFile, ROOT, SPIDER, runCli } from './helpers/cli.js';
import { launchChromium } from './helpers/chromium.js';
import { readErrorFlags, readFlagScores } from '../src/benchmark/error-flags.js';
import { renderHtml } from '../src/report/html.js';
import type { ExplorerData } from '../src/report/explorer-model.js';

/**
 * The per-item explorer (`score --html`) on the bundled default (Spider dev, 23 systems), driven in
 * headless Chromium: filters, search and keyboard change what is shown exactly as the items say.
 */
const OUT = join(ROOT, 'test-output');
const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-explorer-'));
const PAGE = join(OUT, 'explorer-score.html');
const DEV = JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as { db_id: string; question: string }[];

interface Item {
  system: string;
  taskId: string;
  dbId: string;
  correct: boolean;
  difficulty: string;
  predError?: string;
  missing?: boolean;
}

let browser: Awaited<ReturnType<typeof launchChromium>>;
let items: Item[] = [];

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  browser = await launchChromium({ width: 1400, height: 1000 });
  const r = await runCli(['score', '--store', join(tmp, 'store.db'), '--items', join(tmp, 'items.jsonl'), '--html', PAGE]);
  expect(r.code, r.stderr).toBe(0);
  // The bundled manifest turns on the one repair StructGPT's file needs, and the run says so.
  expect(r.stderr).toContain('sqlboard: structgpt: repair restore-select: "SELECT " prepended to 1034 predictions');
  items = readFileSync(join(tmp, 'items.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Item);
}, 900_000);
afterAll(async () => {
  await browser?.close();
});

interface Opened {
  page: Page;
  errors: string[];
  requests: string[];
  readyMs: number;
}

async function open(file: string): Promise<Opened> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => void (!r.url().startsWith('file:') && !r.url().startsWith('data:') && requests.push(r.url())));
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  await page.waitForSelector('body[data-explorer-ready]', { timeout: 240_000 });
  const readyMs = Number(await page.getAttribute('body', 'data-explorer-ready'));
  return { page, errors, requests, readyMs };
}

const countText = (page: Page): Promise<string> => page.textContent('#ex-count').then((t) => t ?? '');
const shown = async (page: Page): Promise<number> => Number((await countText(page)).split(' of ')[0]);
const rowTasks = (page: Page): Promise<string[]> => page.$$eval('.ex-row', (rs) => rs.map((r) => (r as HTMLElement).dataset.task ?? ''));
const selectedTask = (page: Page): Promise<string | null> => page.$eval('.ex-row.sel', (r) => (r as HTMLElement).dataset.task ?? null);

/** Width, height and the number of distinct colours (sampled) of a PNG, decoded by the browser. */
async function pngFacts(png: Buffer): Promise<{ w: number; h: number; colours: number }> {
  const page = await browser.context.newPage();
  const facts = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < d.length; i += 4 * 97) seen.add((d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!);
    return { w: img.width, h: img.height, colours: seen.size };
  }, png.toString('base64'));
  await page.close();
  return facts;
}

describe('score --html: the per-item explorer on the bundled Spider dev run', () => {
  it('opens offline with no errors, lists every task and renders only the rows in view', async () => {
    const { page, errors, requests, readyMs } = await open(PAGE);
    const bytes = statSync(PAGE).size;
    console.log(`explorer page (1034 tasks × 23 systems): ${(bytes / 2 ** 20).toFixed(1)} MiB, interactive ${readyMs} ms after navigation start`);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    expect(await countText(page)).toBe('1034 of 1034 tasks');
    const rows = await rowTasks(page);
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(80);
    expect(rows.slice(0, 3)).toEqual(['0', '1', '2']);
    // The first task's detail: question, gold, one card per system with its verdict.
    expect(await page.textContent('#ex-detail .ex-question')).toBe(DEV[0]!.question);
    const cards = await page.$$eval('#ex-detail .ex-sys', (cs) => cs.map((c) => (c as HTMLElement).dataset.system));
    expect(cards).toHaveLength(23);
    // The bundled run scores EM too (Spider): each card shows the item's EM beside its EX verdict.
    const first = items.find((it) => it.system === cards[0] && it.taskId === '0') as Item & { em: boolean | number };
    const badges = await page.$$eval('#ex-detail .ex-sys:first-of-type .ex-badge', (bs) => bs.map((b) => b.textContent));
    expect(badges).toContain(`EM ${Number(first.em)}`);
    await page.evaluate(() => document.getElementById('explorer')!.scrollIntoView());
    await page.keyboard.press('j'); // task 1, whose detail shows its systems' SQL and result tables
    const screenshot = await page.screenshot({ path: join(OUT, 'explorer-score.png') });
    const facts = await pngFacts(screenshot);
    expect(facts).toMatchObject({ w: 1400, h: 1000 });
    expect(facts.colours).toBeGreaterThan(8); // not blank: text, verdict colours, tables
    await page.close();
  }, 300_000);

  it('filters by database, difficulty, system outcome, disagreement and flags give exactly the tasks the items say', async () => {
    const { page } = await open(PAGE);
    const tasksWhere = (f: (it: Item) => boolean): Set<string> => new Set(items.filter(f).map((it) => it.taskId));

    await page.selectOption('#ex-db', 'concert_singer');
    const concert = DEV.flatMap((q, i) => (q.db_id === 'concert_singer' ? [String(i)] : []));
    expect(await shown(page)).toBe(concert.length);
    for (const t of await rowTasks(page)) expect(concert).toContain(t);
    await page.selectOption('#ex-db', '');

    await page.selectOption('#ex-diff', 'extra');
    expect(await shown(page)).toBe(166);
    await page.selectOption('#ex-diff', '');

    // One system's wrong items (errors and missing included), then its execution errors.
    const system = 'din-sql';
    await page.selectOption('#ex-sys', { label: system });
    await page.selectOption('#ex-out', 'w');
    const wrong = tasksWhere((it) => it.system === system && !it.correct);
    expect(wrong.size).toBeGreaterThan(50);
    expect(await shown(page)).toBe(wrong.size);
    for (const t of await rowTasks(page)) expect(wrong.has(t)).toBe(true);
    // The selected system's card comes first in the detail.
    expect(await page.$eval('#ex-detail .ex-sys', (c) => (c as HTMLElement).dataset.system)).toBe(system);
    await page.selectOption('#ex-out', 'e');
    expect(await shown(page)).toBe(tasksWhere((it) => it.system === system && it.predError !== undefined).size);
    await page.selectOption('#ex-out', '');
    await page.selectOption('#ex-sys', '');

    await page.check('#ex-dis');
    const right = tasksWhere((it) => it.correct);
    const disagree = [...right].filter((t) => tasksWhere((it) => !it.correct).has(t));
    expect(await shown(page)).toBe(disagree.length);
    await page.uncheck('#ex-dis');

    await page.selectOption('#ex-out', 'none');
    expect(await shown(page)).toBe(1034 - right.size);
    await page.selectOption('#ex-out', '');

    const flags = readErrorFlags(join(ROOT, 'data', 'spider', 'audit', 'flags.csv'));
    await page.selectOption('#ex-flag', 'flag');
    expect(await shown(page)).toBe([...flags.values()].filter(Boolean).length);
    await page.selectOption('#ex-flag', '');
    expect(await countText(page)).toBe('1034 of 1034 tasks');

    // The bundled flags come from an audit: its review scores order the review queue here too.
    const scores = readFlagScores(join(ROOT, 'data', 'spider', 'audit', 'flags.csv'));
    expect(scores.size).toBe(1034);
    const queue = [...scores].sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0])).map(([id]) => id);
    await page.selectOption('#ex-sort', 'review');
    expect((await rowTasks(page)).slice(0, 5)).toEqual(queue.slice(0, 5));
    await page.click('.ex-row[data-i="0"]');
    expect(await page.textContent('#ex-detail .ex-meta')).toContain(`review rank 1, score ${scores.get(queue[0]!)!.toFixed(3)}`);
    await page.selectOption('#ex-sort', 'task');
    await page.close();
  }, 300_000);

  it('search narrows to matching questions and SQL; j/k and arrows move the selection; / focuses the search', async () => {
    const { page } = await open(PAGE);
    const target = 417;
    const words = DEV[target]!.question;
    await page.fill('#ex-search', words);
    await page.waitForFunction(() => !document.getElementById('ex-count')!.textContent!.startsWith('1034 '));
    const hits = DEV.flatMap((q, i) => (q.question.toLowerCase().includes(words.toLowerCase()) ? [String(i)] : []));
    expect(await rowTasks(page)).toEqual(expect.arrayContaining(hits));
    expect(await shown(page)).toBeGreaterThanOrEqual(hits.length);
    expect(await shown(page)).toBeLessThan(20);
    // A string only a prediction's SQL holds: searching all systems' SQL finds it.
    await page.fill('#ex-search', 'no such text in any task 7f3a');
    await page.waitForFunction(() => document.getElementById('ex-count')!.textContent!.startsWith('0 '));
    expect(await page.textContent('#ex-detail')).toContain('No task matches');
    await page.fill('#ex-search', '');
    await page.waitForFunction(() => document.getElementById('ex-count')!.textContent!.startsWith('1034 '));

    await page.click('#ex-detail h3'); // focus off the search box
    expect(await selectedTask(page)).toBe('0');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    expect(await selectedTask(page)).toBe('2');
    expect(await page.textContent('#ex-detail h3')).toBe('Task #2');
    await page.keyboard.press('k');
    expect(await selectedTask(page)).toBe('1');
    await page.keyboard.press('ArrowDown');
    expect(await selectedTask(page)).toBe('2');
    // Far down the list the virtual list scrolls with the selection and renders the rows there.
    for (let i = 0; i < 60; i++) await page.keyboard.press('j');
    expect(await selectedTask(page)).toBe('62');
    expect(await page.$eval('#ex-list', (l) => l.scrollTop)).toBeGreaterThan(0);
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('ex-search');
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.activeElement?.id)).not.toBe('ex-search');
    await page.close();
  }, 300_000);
});

describe('explorer on a phone-sized screen', () => {
  it('at 360 px the panes stack and nothing overflows the page', async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(pathToFileURL(PAGE).href, { waitUntil: 'load' });
    await page.waitForSelector('body[data-explorer-ready]', { timeout: 240_000 });
    await page.evaluate(() => document.getElementById('explorer')!.scrollIntoView());
    const m = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      view: document.documentElement.clientWidth,
      list: document.getElementById('ex-list')!.getBoundingClientRect(),
      detail: document.getElementById('ex-detail')!.getBoundingClientRect(),
    }));
    const png = await page.screenshot({ path: join(OUT, 'explorer-score-360.png') });
    await page.close();
    expect(m.page).toBeLessThanOrEqual(m.view);
    expect(m.detail.top).toBeGreaterThanOrEqual(m.list.bottom); // stacked, list above detail
    expect((await pngFacts(png)).w).toBe(360);
  }, 300_000);
});

describe('explorer: hostile predictions', () => {
  it('a prediction with </script><script> and markup in SQL, cells and column names is shown as text and never runs', async () => {
    const lines = readFileSync(devGoldFile(), 'utf8').trim().split('\n').slice(0, 1034).map((l) => l.split('\t')[0]!);
    lines[0] = `SELECT 1 -- </script><script>window.__pwned = 1</script>`;
    lines[1] = `SELECT '<img src=x onerror="window.__pwned = 2">' AS "</script><script>window.__pwned = 3</script>"`;
    lines[2] = `SELECT '<!--<script>' AS a, '\u2028x' AS b FROM singer`;
    const evil = join(tmp, 'evil.sql');
    writeFileSync(evil, lines.join('\n') + '\n');
    const html = join(OUT, 'explorer-hostile.html');
    const r = await runCli(['score', '--questions', join(SPIDER, 'dev.json'), '--db-root', join(SPIDER, 'database'), '--store', join(tmp, 'store.db'), '--system', `evil=${evil}`, '--html', html]);
    expect(r.code, r.stderr).toBe(0);
    const { page, errors } = await open(html);
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.$$('img')).toHaveLength(0);
    expect(await page.textContent('#ex-detail .ex-sys pre.ex-sql')).toBe(lines[0]);
    await page.keyboard.press('j');
    const card = '#ex-detail .ex-sys';
    expect(await page.textContent(`${card} pre.ex-sql`)).toBe(lines[1]);
    expect(await page.textContent(`${card} table.ex-tbl th`)).toBe('</script><script>window.__pwned = 3</script>');
    expect(await page.textContent(`${card} table.ex-tbl td`)).toBe('<img src=x onerror="window.__pwned = 2">');
    await page.keyboard.press('j');
    expect(await page.textContent(`${card} table.ex-tbl td`)).toBe('<!--<script>');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.close();
  }, 300_000);
});

describe('explorer at BIRD dev size', () => {
  it('1,534 tasks × 23 systems: one embedded JSON, interactive, filters and keys work', async () => {
    const page0 = readFileSync(PAGE, 'utf8');
    const json = /<script type="application\/json" id="sqlboard-explorer-data">([^<]*)<\/script>/.exec(page0)![1]!;
    const data = JSON.parse(json) as ExplorerData;
    // The 1,034 Spider tasks and 500 of them again under new ids: BIRD dev's 1,534.
    const extra = data.tasks.slice(0, 500).map((t, i) => ({ ...t, id: String(2000 + i) }));
    const big: ExplorerData = { ...data, tasks: [...data.tasks, ...extra] };
    const file = join(OUT, 'explorer-1534.html');
    writeFileSync(file, renderHtml({ title: 'Explorer at BIRD dev size', sections: [], explorer: big }));
    const { page, errors, readyMs } = await open(file);
    console.log(`explorer page (1534 tasks × 23 systems): ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB, interactive ${readyMs} ms after navigation start`);
    expect(errors).toEqual([]);
    expect(await countText(page)).toBe('1534 of 1534 tasks');
    expect((await rowTasks(page)).length).toBeLessThan(80);
    await page.selectOption('#ex-db', 'concert_singer');
    const concert = big.tasks.filter((t) => t.db === 'concert_singer').length;
    expect(await shown(page)).toBe(concert);
    await page.click('#ex-detail h3');
    await page.keyboard.press('j');
    expect(await page.$eval('.ex-row.sel', (r) => (r as HTMLElement).dataset.i)).toBe('1');
    await page.close();
  }, 300_000);
});
