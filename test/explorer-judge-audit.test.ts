import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ROOT, SPIDER, maxLineWidth, runCli } from './helpers/cli.js';
import { launchChromium } from './helpers/chromium.js';
import { startFakeLlmServer, type FakeLlmServer } from './helpers/fake-llm-server.js';
import { DB_ROOT, DEV_JSON, ROUTE_CASES, routeScript } from './judge/spider-fixture.js';

/** `judge --html` and `audit --html`: the explorer shows the judge's labels, and the audit's review queue in order. */
const OUT = join(ROOT, 'test-output');
const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-explorer-ja-'));
let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: FakeLlmServer;

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  browser = await launchChromium();
  server = await startFakeLlmServer(routeScript);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(file: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  await page.waitForSelector('body[data-explorer-ready]', { timeout: 240_000 });
  return { page, errors };
}
const shown = async (page: Page): Promise<number> => Number(((await page.textContent('#ex-count')) ?? '').split(' of ')[0]);
const rowTasks = (page: Page): Promise<string[]> => page.$$eval('.ex-row', (rs) => rs.map((r) => (r as HTMLElement).dataset.task ?? ''));

describe('judge --html', () => {
  it("shows each item's judge verdict, its GoldX/AmbQ labels, route and EX; the GoldX filter keeps the tasks labelled", async () => {
    const dev = JSON.parse(readFileSync(DEV_JSON, 'utf8')) as unknown[];
    const questions = join(tmp, 'questions.json');
    const preds = join(tmp, 'preds.sql');
    writeFileSync(questions, JSON.stringify(ROUTE_CASES.map((c) => dev[Number(c.taskId)])));
    writeFileSync(preds, ROUTE_CASES.map((c) => `${c.pred}\tconcert_singer`).join('\n') + '\n');
    const html = join(OUT, 'explorer-judge.html');
    const items = join(tmp, 'judge.jsonl');
    const r = await runCli(
      ['judge', '--questions', questions, '--db-root', DB_ROOT, '--system', `routes=${preds}`, '--provider', 'openai', '--model', 'gpt-4o',
        '--base-url', server.openaiBase, '--store', join(tmp, 'judge.db'), '--workers', '2', '--items', items, '--html', html],
      { env: { OPENAI_API_KEY: 'sk-explorer-0123456789abcdef' } },
    );
    expect(r.stderr).not.toMatch(/internal error/);
    const lines = readFileSync(items, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { taskId: string; correct: boolean | null; goldX: boolean; ambQ: boolean; route: string; ex: boolean });
    const { page, errors } = await open(html);
    expect(errors).toEqual([]);
    expect(await shown(page)).toBe(ROUTE_CASES.length);
    // Every task: the card's verdict word, badges and route are the item's.
    for (const [i, it] of lines.entries()) {
      if (i > 0) await page.keyboard.press('j');
      const card = await page.$eval('#ex-detail .ex-sys', (c) => ({
        badges: [...c.querySelectorAll('.ex-badge')].map((b) => b.textContent),
        text: c.textContent ?? '',
      }));
      const word = it.correct === null ? 'undecided' : it.correct ? 'correct' : it.route === 'pred-error' ? 'error' : 'wrong';
      expect(card.badges[0], `task ${it.taskId}`).toBe(word);
      expect(card.badges.includes('GoldX')).toBe(it.goldX);
      expect(card.badges.includes('AmbQ')).toBe(it.ambQ);
      expect(card.badges).toContain(`EX ${it.ex ? 1 : 0}`);
      expect(card.text).toContain(`route: ${it.route}`);
    }
    const goldX = lines.filter((l) => l.goldX).map((l) => l.taskId);
    expect(goldX.length).toBeGreaterThan(0);
    await page.selectOption('#ex-flag', 'flag');
    expect(await rowTasks(page)).toEqual(goldX);
    await page.selectOption('#ex-flag', 'ambq');
    expect(await rowTasks(page)).toEqual(lines.filter((l) => l.ambQ).map((l) => l.taskId));
    await page.selectOption('#ex-flag', '');
    await page.selectOption('#ex-out', 'u');
    expect(await rowTasks(page)).toEqual(lines.filter((l) => l.correct === null).map((l) => l.taskId));
    await page.evaluate(() => document.getElementById('explorer')!.scrollIntoView());
    await page.screenshot({ path: join(OUT, 'explorer-judge.png') });
    await page.close();
  }, 300_000);
});

describe('audit --html', () => {
  it('orders the review queue by the review score, shows flags and scores, and filters flagged tasks', async () => {
    // The first 120 Spider dev tasks and three bundled systems' predictions for them.
    const N = 120;
    const dev = JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as unknown[];
    const questions = join(tmp, 'audit-questions.json');
    writeFileSync(questions, JSON.stringify(dev.slice(0, N)));
    const manifest = JSON.parse(readFileSync(join(ROOT, 'data', 'spider', 'predictions', 'manifest.json'), 'utf8')) as { systems: { name: string; file: string }[] };
    // Three systems whose files are Spider text, one line per task.
    const agents = ['c3', 'resdsql-3b', 'chatgpt-zero-shot-chang2023'].map((name) => {
      const entry = manifest.systems.find((s) => s.name === name)!;
      const file = join(tmp, `${name}.sql`);
      writeFileSync(file, readFileSync(join(ROOT, 'data', 'spider', 'predictions', entry.file), 'utf8').split('\n').slice(0, N).join('\n') + '\n');
      return `${name}=${file}`;
    });
    const html = join(OUT, 'explorer-audit.html');
    const r = await runCli(['audit', '--questions', questions, '--db-root', join(SPIDER, 'database'), ...agents.flatMap((a) => ['--agent', a]), '--store', join(tmp, 'audit.db'), '--json', '--html', html]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { flagged: number };
    const { page, errors } = await open(html);
    expect(errors).toEqual([]);
    expect(await page.$eval('#ex-sort', (s) => (s as HTMLSelectElement).value)).toBe('review');
    const data = JSON.parse((await page.textContent('#sqlboard-explorer-data'))!) as { tasks: { id: string; rk: number; rs: number; fl: boolean }[] };
    const byRank = [...data.tasks].sort((a, b) => a.rk - b.rk || Number(a.id) - Number(b.id)).map((t) => t.id);
    expect((await rowTasks(page)).slice(0, 10)).toEqual(byRank.slice(0, 10));
    // Scores fall down the queue.
    const scores = byRank.map((id) => data.tasks.find((t) => t.id === id)!.rs);
    for (let i = 1; i < scores.length; i++) expect(scores[i]!).toBeLessThanOrEqual(scores[i - 1]!);
    await page.selectOption('#ex-flag', 'flag');
    expect(await shown(page)).toBe(data.tasks.filter((t) => t.fl).length);
    expect(await shown(page)).toBe(json.flagged);
    expect(await page.textContent('#ex-detail .ex-meta')).toMatch(/review rank \d+, score [01]\.\d{3}/);
    await page.evaluate(() => document.getElementById('explorer')!.scrollIntoView());
    await page.screenshot({ path: join(OUT, 'explorer-audit.png') });
    await page.close();
    // The audit's terminal tables with labels (its widest: detectors and baselines) fit 100 columns.
    // Hand labels in SALUS's BIRD layout (with error types) for every other task, every fourth of them wrong gold.
    const labels = join(tmp, 'labels.csv');
    const labelled = [...Array(N).keys()].filter((i) => i % 2 === 0);
    writeFileSync(labels, ['query_id,db_id,difficulty,label,error_type,correction', ...labelled.map((i) => (i % 8 === 0 ? `${i},x,simple,0,Incorrect SQL,` : `${i},x,simple,1,,`))].join('\n') + '\n');
    const table = await runCli(['audit', '--questions', questions, '--db-root', join(SPIDER, 'database'), ...agents.flatMap((a) => ['--agent', a]), '--store', join(tmp, 'audit.db'), '--labels', labels]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain('majority vote of the agents');
    expect(maxLineWidth(table.stdout)).toBeLessThanOrEqual(100);
  }, 300_000);
});
