import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stats } from '../src/api.js';
import { renderHtml } from '../src/report/html.js';
import { renderMarkdown } from '../src/report/markdown.js';
import { ROOT, SPIDER, runCli } from './helpers/cli.js';
import type { Provenance } from '../src/report/provenance.js';
import { htmlWithoutMeta, markdownWithoutMeta } from './helpers/meta.js';

/*
 * Every output says where it came from: `schemaVersion` and `meta` in --json, a footer in Markdown
 * and HTML, FILE.meta.json beside a CSV file. Checked on real Spider dev databases and the real
 * prompt templates: the hashes must be the files' own.
 */

const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');
const dir = mkdtempSync(join(tmpdir(), 'provenance-'));
const questions = join(dir, 'dev-12.json');
const dbRoot = join(SPIDER, 'database');
const system = `c3=${join(dir, 'c3.sql')}`;
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

type Meta = Provenance;

beforeAll(() => {
  const dev = JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as unknown[];
  writeFileSync(questions, JSON.stringify(dev.slice(40, 52)));
  writeFileSync(join(dir, 'c3.sql'), readFileSync(join(SPIDER, 'predictions', 'c3', 'predicted_sql.txt'), 'utf8').split('\n').slice(40, 52).join('\n') + '\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function expectRunMeta(meta: Meta, command: string): void {
  expect(meta.sqlboard.version).toBe(version);
  let commit: string | undefined;
  try {
    commit = execFileSync('git', ['-C', ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    commit = undefined;
  }
  expect(meta.sqlboard.commit).toBe(commit);
  expect(meta.command).toBe(command);
  expect(Date.parse(meta.startedAt)).toBeLessThanOrEqual(Date.parse(meta.endedAt));
}

describe('provenance of every output', () => {
  it('score --json: version, commit, command and options, and the sha256 of every database it opened', async () => {
    const r = await runCli(['score', '--questions', questions, '--db-root', dbRoot, '--system', system, '--store', join(dir, 'a.db'), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { schemaVersion: number; meta: Meta };
    expect(Object.keys(out).slice(0, 2)).toEqual(['schemaVersion', 'meta']);
    expect(out.schemaVersion).toBe(2);
    expectRunMeta(out.meta, 'score');
    expect(out.meta.options).toMatchObject({ questions, dbRoot, system: [system], timeout: 30 });
    // Only the library's options: no yargs bookkeeping, kebab-case twins or output flags.
    expect(Object.keys(out.meta.options).filter((k) => k.includes('-') || k === '_' || k === '$0' || k === 'json')).toEqual([]);
    const dbs = ['concert_singer', 'pets_1'];
    expect(Object.keys(out.meta.databases ?? {})).toEqual(dbs);
    for (const db of dbs) expect(out.meta.databases![db]).toBe(sha256(readFileSync(join(dbRoot, db, `${db}.sqlite`))));
  }, 300_000);

  it('--md and --html end with a provenance footer; --csv FILE stays plain CSV with FILE.meta.json beside it', async () => {
    const [md, html, csv] = ['r.md', 'r.html', 'r.csv'].map((f) => join(dir, f));
    const r = await runCli(['score', '--questions', questions, '--db-root', dbRoot, '--system', system, '--store', join(dir, 'a.db'), '--md', md, '--html', html, '--csv', csv]);
    expect(r.code, r.stderr).toBe(0);
    const mdText = readFileSync(md, 'utf8');
    const footer = /<details><summary>Provenance \(sqlboard [^)]*\)<\/summary>\n\n```json\n([\s\S]*?)\n```\n\n<\/details>\n$/.exec(mdText);
    expect(footer).not.toBeNull();
    const mdMeta = JSON.parse(footer![1]!) as Meta;
    expectRunMeta(mdMeta, 'score');
    const htmlText = readFileSync(html, 'utf8');
    const pre = /<pre id="sqlboard-provenance"[^>]*>([\s\S]*?)<\/pre>/.exec(htmlText);
    expect(pre).not.toBeNull();
    const htmlMeta = JSON.parse(pre![1]!.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&')) as Meta;
    // One run, one provenance in every file.
    expect(htmlMeta).toEqual(mdMeta);
    const companion = JSON.parse(readFileSync(`${csv}.meta.json`, 'utf8')) as { schemaVersion: number; meta: Meta };
    expect(companion).toEqual({ schemaVersion: 2, meta: mdMeta });
    const rows = parse(readFileSync(csv, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => row.System)).toEqual(['c3']);
    expect(r.stderr).toContain(`wrote ${csv}.meta.json`);
  }, 300_000);

  it('judge: the prompt templates it sent, by hash, and the judge model', async () => {
    const replay = join(dir, 'replay.jsonl');
    writeFileSync(
      replay,
      [
        JSON.stringify({ contains: ['returned exactly the same result'], text: JSON.stringify({ reason: 'same rows', overturn: false, ambiguity: 'none', goldCorrect: true }) }),
        JSON.stringify({ contains: ['You are the Prover'], text: JSON.stringify({ expectedAnswer: 'rows', sqlDescription: 'rows', reason: 'differs', verdict: false }) }),
      ].join('\n') + '\n',
    );
    const r = await runCli(['judge', '--questions', questions, '--db-root', dbRoot, '--system', system, '--provider', 'replay', '--replay', replay, '--model', 'gpt-4o-2024-08-06', '--store', join(dir, 'j.db'), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const meta = (JSON.parse(r.stdout) as { meta: Meta }).meta;
    expectRunMeta(meta, 'judge');
    const hash = (name: string): string => sha256(readFileSync(join(ROOT, 'prompts', `${name}.md`), 'utf8')).slice(0, 16);
    expect(meta.prompts).toEqual({ prover: hash('prover'), refuter: hash('refuter'), 'refuter-match': hash('refuter-match') });
    expect(meta.models).toEqual([{ role: 'judge', provider: 'replay', model: 'gpt-4o-2024-08-06' }]);
    expect(Object.keys(meta.databases ?? {})).toEqual(['concert_singer', 'pets_1']);
  }, 300_000);

  it('leaderboard and stats record their seed; the footer is all a report gains', async () => {
    const r = await stats({ statistic: 'interval', k: 803, n: 1034 });
    const meta = (r.json as { meta: Meta }).meta;
    expect(meta.command).toBe('stats interval');
    expect(meta.options).toEqual({ statistic: 'interval', k: 803, n: 1034 });
    expect(meta.seed).toBeUndefined();
    const bare = { ...r.report, provenance: undefined };
    expect(markdownWithoutMeta(renderMarkdown(r.report))).toBe(renderMarkdown(bare));
    expect(htmlWithoutMeta(renderHtml(r.report))).toBe(renderHtml(bare));
    expect(renderMarkdown(r.report)).not.toBe(renderMarkdown(bare));
    const items = join(dir, 'items.jsonl');
    writeFileSync(items, ['0', '1', '2'].map((t, i) => JSON.stringify({ system: 'x', taskId: t, correct: i > 0 })).join('\n') + '\n');
    const lb = await runCli(['leaderboard', items, '--seed', '9', '--iterations', '50', '--json']);
    expect(lb.code, lb.stderr).toBe(0);
    const lbMeta = (JSON.parse(lb.stdout) as { meta: Meta }).meta;
    expect(lbMeta.seed).toBe(9);
    expect(lbMeta.options).toMatchObject({ items: [items], seed: 9, iterations: 50 });
  }, 300_000);
});
