import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledSpider } from '../src/benchmark/bundled.js';
import { emitReport, type ReportIo } from '../src/report/output.js';
import { fitTable } from '../src/report/terminal-fit.js';
import type { Report, Table } from '../src/report/model.js';
import { devGoldFile, maxLineWidth, runCli, SPIDER } from './helpers/cli.js';
import { writeSiteBoard } from './helpers/board.js';

const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-width-'));

function capture(report: Report, argv: { wide?: boolean }, columns: number | undefined): string {
  let out = '';
  const io: ReportIo = { stdout: (t) => (out += t), stderr: () => {}, writeFile: () => {}, columns: () => columns };
  emitReport(report, {}, argv, io);
  return out;
}

const interval = (e: number) => ({ estimate: e, low: e - 0.02, high: e + 0.02 });
const wideTable: Table = {
  columns: [
    { key: 'system', header: 'System' },
    { key: 'ex', header: 'EX [95% CI]', format: 'percent' },
    { key: 'clean', header: 'Clean-subset EX', short: 'Clean EX', format: 'percent' },
    { key: 'correct', header: 'Correct', format: 'integer', optional: true },
    { key: 'timeouts', header: 'Timeouts', format: 'integer' },
    { key: 'note', header: 'Note' },
  ],
  rows: Array.from({ length: 5 }, (_, i) => ({
    system: `a-rather-long-system-name-number-${i}`,
    ex: interval(0.8 - i / 100),
    clean: interval(0.9 - i / 100),
    correct: 800 - i,
    timeouts: 0,
    note: 'a note that is long enough to need wrapping at narrow widths',
  })),
};

describe('terminal tables fit the terminal', () => {
  it('each step is taken only while the table is too wide, and says what it hid', () => {
    const full = fitTable(wideTable, Infinity);
    expect(full.notes).toEqual([]);
    expect(full.rows[0]![1]).toBe('80.0% [78.0, 82.0]');

    const at = (w: number) => {
      const f = fitTable(wideTable, w);
      const widths = f.head.map((h, i) => Math.max(...[h, ...f.rows.map((r) => r[i]!)].flatMap((t) => t.split('\n')).map((l) => [...l].length)));
      const cw = f.colWidths ? f.colWidths.map((x) => x - 2) : widths;
      return { f, width: cw.reduce((a, x) => a + x + 3, 1) };
    };
    for (const w of [140, 120, 100, 80, 60, 40]) expect(at(w).width, `width ${w}`).toBeLessThanOrEqual(w);
    const at120 = at(120).f;
    // The all-zero Timeouts column goes first; intervals stay while names and optional columns can give way.
    expect(at120.notes[0]).toBe('Timeouts: 0 in every row, column hidden');
    expect(at120.rows[0]!.join(' ')).toContain('[');
    const at80 = at(80).f;
    expect(at80.notes).toContain('intervals hidden');
    expect(at80.notes).toContain('columns hidden: Correct');
    expect(at80.head.join('|')).not.toContain('[95% CI]');
  });

  it('at 80 columns the score table shortens system names with an ellipsis and never splits one over two lines', () => {
    // The default score table's columns, with the 23 bundled systems' names (issue 34 saw `supersq` / `l`).
    const names = bundledSpider().systems.map((s) => s.name);
    const pct = (k: string, header: string) => ({ key: k, header, format: 'percent' as const });
    const table: Table = {
      columns: [
        { key: 'rank', header: '#', format: 'integer' },
        { key: 'system', header: 'System' },
        pct('ex', 'EX'),
        pct('em', 'EM'),
        { ...pct('clean', 'Clean-subset EX'), short: 'Clean EX' },
        { key: 'correct', header: 'Correct', format: 'integer', optional: true },
        pct('easy', 'easy'),
        pct('medium', 'medium'),
        pct('hard', 'hard'),
        pct('extra', 'extra'),
        { key: 'err', header: 'Exec err', format: 'integer' },
        { key: 'timeouts', header: 'Timeouts', format: 'integer' },
      ],
      rows: names.map((system, i) => ({
        rank: i + 1,
        system,
        ex: interval(0.87 - i / 100),
        em: interval(0.72 - i / 100),
        clean: interval(0.97 - i / 100),
        correct: 900 - i,
        easy: 0.94,
        medium: 0.913,
        hard: 0.845,
        extra: 0.687,
        err: i * 5,
        timeouts: 0,
      })),
    };
    for (const w of [80, 72, 60]) {
      const f = fitTable(table, w);
      const col = f.head.indexOf('System');
      expect(col, `width ${w}`).toBe(1);
      f.rows.forEach((r, i) => {
        const cell = r[col]!;
        expect(cell, `width ${w}`).not.toContain('\n');
        if (cell !== names[i]) {
          expect(cell, `width ${w}`).toMatch(/…/);
          // One ellipsis, and the name's own start and end around it.
          const [head, tail] = cell.split('…');
          expect(names[i]!.startsWith(head!) && names[i]!.endsWith(tail!), `${cell} for ${names[i]}`).toBe(true);
        }
      });
      expect(f.notes, `width ${w}`).toContain('long names shortened');
    }
    // Names a little too long for 80 columns keep their size suffixes apart.
    const at80 = fitTable(table, 80).rows.map((r) => r[1]);
    expect(at80).toContain('supe…ql');
    const codes = names.flatMap((n, i) => (/^codes-\d+b$/.test(n) ? [at80[i]] : []));
    expect(codes.length).toBe(4);
    expect(new Set(codes).size).toBe(4);
  });

  it('emitReport fits the terminal width, 100 columns when stdout is not a terminal, and --wide shows all', () => {
    const report: Report = { title: 'T', meta: { file: '/a/very/long/path/'.repeat(8) }, sections: [{ title: 'S', notes: ['word '.repeat(60)], table: wideTable }] };
    expect(maxLineWidth(capture(report, {}, undefined))).toBeLessThanOrEqual(100);
    expect(maxLineWidth(capture(report, {}, 72))).toBeLessThanOrEqual(72);
    const wide = capture(report, { wide: true }, 72);
    expect(wide).toContain('80.0% [78.0, 82.0]');
    expect(wide).toContain('Timeouts');
    expect(maxLineWidth(wide)).toBeGreaterThan(100);
  });

  it('every command prints tables that fit 100 columns when stdout is a pipe', async () => {
    // score: 23 systems with the bundled (long) names on the first 40 Spider dev tasks.
    const n = 40;
    const questions = join(tmp, 'dev40.json');
    writeFileSync(questions, JSON.stringify((JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as unknown[]).slice(0, n)));
    const gold = readFileSync(devGoldFile(), 'utf8').split('\n').slice(0, n);
    const systems = bundledSpider().systems.map((s, k) => {
      const file = join(tmp, `${s.name}.sql`);
      writeFileSync(file, gold.map((l, i) => ((i + k) % 5 === 0 ? `SELECT 1\t${l.split('\t')[1]}` : l)).join('\n') + '\n');
      return ['--system', `${s.name}=${file}`];
    });
    const score = await runCli(['score', '--questions', questions, '--db-root', join(SPIDER, 'database'), '--store', join(tmp, 's.db'), '--items', join(tmp, 'items.jsonl'), ...systems.flat()]);
    expect(score.code, score.stderr).toBe(0);
    expect(score.stdout).toContain('chatgpt-zero-shot-chang2023');
    expect(maxLineWidth(score.stdout)).toBeLessThanOrEqual(100);
    const wide = await runCli(['score', '--questions', questions, '--db-root', join(SPIDER, 'database'), '--store', join(tmp, 's.db'), '--wide', ...systems.flat()]);
    expect(maxLineWidth(wide.stdout)).toBeGreaterThan(100);

    // Labels in SALUS's ground-truth layout for `stats agreement`: the flags' first 200 tasks, every fifth flipped.
    const flags = join(SPIDER, 'audit', 'flags.csv');
    const truth = join(tmp, 'truth.csv');
    const flagRows = readFileSync(flags, 'utf8').trim().split('\n').slice(1, 201).map((l) => l.split(','));
    writeFileSync(truth, ['query_id,label', ...flagRows.map(([id, label], i) => `${id},${i % 5 === 0 ? 1 - Number(label) : label}`)].join('\n') + '\n');
    const commands = [
      ['leaderboard', join(tmp, 'items.jsonl'), '--flags', flags, '--iterations', '100'],
      ['leaderboard', '--board', writeSiteBoard(tmp), '--n', '1534', '--flawed', '564'],
      ['stats', 'gap', '--n', '1534', '--flawed', '564'],
      ['stats', 'prevalence', '--n', '1034', '--flagged', '276', '--tp', '40', '--fp', '10', '--fn', '20', '--tn', '130'],
      ['stats', 'detector', '--tp', '40', '--fp', '10', '--fn', '20', '--tn', '130'],
      ['stats', 'interval', '--k', '700', '--n', '1034'],
      ['stats', 'agreement', flags, truth],
    ];
    for (const args of commands) {
      const r = await runCli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(maxLineWidth(r.stdout), args.slice(0, 3).join(' ')).toBeLessThanOrEqual(100);
    }
  }, 300_000);
});
