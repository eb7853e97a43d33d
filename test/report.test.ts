import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import {
  csvField,
  emitReport,
  formatCell,
  renderCsv,
  renderHtml,
  renderMarkdown,
  renderTerminal,
  type Report,
  type ReportIo,
} from '../src/report/index.js';
import { UserError } from '../src/errors.js';

const awkward = 'Sys "quoted", with comma\nand newline | pipe *star* <b>';

function sample(): Report {
  return {
    title: 'Sample <report>',
    meta: { seed: 7, file: 'a,b.jsonl' },
    sections: [
      {
        title: 'Systems',
        notes: ['Missing tasks count as wrong.'],
        table: {
          columns: [
            { key: 'system', header: 'System' },
            { key: 'acc', header: 'Accuracy', format: 'percent' },
            { key: 'diff', header: 'Δ', format: 'points' },
            { key: 'p', header: 'p', format: 'pvalue' },
            { key: 'n', header: 'N', format: 'integer' },
            { key: 'ok', header: 'OK' },
          ],
          rows: [
            { system: awkward, acc: { estimate: 0.7491, low: 0.727, high: 0.7702, method: 'wilson' }, diff: 0.023, p: 0.0004, n: 1534, ok: true },
            { system: 'plain', acc: { estimate: 0.5, low: 0.4, high: 0.6 }, diff: -0.01, p: 0.5, n: 10, ok: false },
            { system: 'empty', acc: null, diff: undefined, p: NaN, n: 0, ok: null },
          ],
        },
      },
      {
        title: 'Second',
        table: { columns: [{ key: 'x', header: 'X' }], rows: [{ x: 1 }] },
        plots: [{ kind: 'interval', axisLabel: 'acc', percent: true, points: [{ label: 'a', value: 0.5, low: 0.4, high: 0.6 }] }],
      },
    ],
  };
}

function memoryIo(): ReportIo & { out: string; err: string; files: Map<string, string> } {
  const io = {
    out: '',
    err: '',
    files: new Map<string, string>(),
    stdout: (t: string) => void (io.out += t),
    stderr: (t: string) => void (io.err += t),
    writeFile: (p: string, t: string) => void io.files.set(p, t),
  };
  return io;
}

describe('cell formatting', () => {
  it('formats percents, intervals, points and p-values', () => {
    const col = { key: 'a', header: 'A', format: 'percent' as const };
    expect(formatCell(0.7491, col)).toBe('74.9%');
    expect(formatCell({ estimate: 0.7491, low: 0.727, high: 0.7702 }, col)).toBe('74.9% [72.7, 77.0]');
    expect(formatCell(0.023, { key: 'a', header: 'A', format: 'points' })).toBe('+2.3');
    expect(formatCell(-0.0509, { key: 'a', header: 'A', format: 'points', digits: 2 })).toBe('-5.09');
    expect(formatCell(0.0004, { key: 'a', header: 'A', format: 'pvalue' })).toBe('<0.001');
    expect(formatCell(0.0123, { key: 'a', header: 'A', format: 'pvalue' })).toBe('0.012');
    expect(formatCell(null, col)).toBe('');
    expect(formatCell(NaN, col)).toBe('–');
  });
});

describe('CSV renderer', () => {
  it('quotes fields with commas, quotes and newlines (RFC 4180) and leaves others bare', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('-0.02')).toBe('-0.02');
  });

  it('writes the main table with raw values and splits intervals into three columns; a CSV parser reads it back', () => {
    const csv = renderCsv(sample());
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(['System', 'Accuracy', 'Accuracy low', 'Accuracy high', 'Δ', 'p', 'N', 'OK']);
    expect(rows).toHaveLength(3);
    expect(rows[0]!.System).toBe(awkward);
    expect(rows[0]!.Accuracy).toBe('0.7491');
    expect(rows[0]!['Accuracy high']).toBe('0.7702');
    expect(rows[0]!.N).toBe('1534');
    expect(rows[1]!.Δ).toBe('-0.01');
    expect(rows[2]).toMatchObject({ Accuracy: '', 'Accuracy low': '', p: '', OK: '' });
    // Only the first section's table: the CSV stays one rectangular table.
    expect(csv).not.toContain('X');
  });
});

describe('Markdown renderer', () => {
  it('escapes pipes, backslashes and newlines inside cells so the table keeps its shape', () => {
    const md = renderMarkdown(sample());
    const line = md.split('\n').find((l) => l.includes('Sys "quoted"'))!;
    expect(line).toContain('\\<b>');
    expect(line).toContain('\\|');
    expect(line).toContain('<br>');
    // every table row has the same number of unescaped pipes
    const tableLines = md.slice(0, md.indexOf('## Second')).split('\n').filter((l) => l.startsWith('|'));
    const counts = tableLines.map((l) => l.replace(/\\\|/g, '').split('|').length);
    expect(new Set(counts).size).toBe(1);
    expect(md).toContain('| --- | ---: |');
    expect(md).toMatch(/^# Sample \\<report\\>/);
    expect(md).toContain('74.9% [72.7, 77.0]');
  });
});

describe('terminal renderer', () => {
  it('prints title, meta, notes and an uncoloured table', () => {
    const t = renderTerminal(sample());
    expect(t.startsWith('Sample <report>\n')).toBe(true);
    expect(t).toContain('seed: 7');
    expect(t).toContain('Missing tasks count as wrong.');
    expect(t).toContain('74.9% [72.7, 77.0]');
    expect(t).not.toContain('\u001b[');
  });
});

describe('HTML renderer', () => {
  it('is one self-contained page: escaped text, inline SVG, no external references', () => {
    const html = renderHtml(sample());
    expect(html).toContain('<title>Sample &lt;report&gt;</title>');
    expect(html).toContain('&lt;b&gt;');
    expect(html).not.toContain('<b>');
    expect(html).toContain('<svg');
    expect(html.match(/class="mark"/g)).toHaveLength(1);
    expect(html).not.toMatch(/(src|href)=|@import|url\(/);
    expect(html).toContain("default-src 'none'");
  });
});

describe('emitReport', () => {
  it('prints the table by default', () => {
    const io = memoryIo();
    emitReport(sample(), { a: 1 }, {}, io);
    expect(io.out).toContain('Sample <report>');
    expect(io.files.size).toBe(0);
  });

  it('--json prints only the JSON object', () => {
    const io = memoryIo();
    emitReport(sample(), { a: 1, x: [0.5] }, { json: true, html: 'r.html' }, io);
    expect(JSON.parse(io.out)).toEqual({ a: 1, x: [0.5] });
    expect(io.files.get('r.html')).toContain('<!DOCTYPE html>');
    expect(io.err).toContain('wrote r.html');
  });

  it('--csv and --md go to stdout without a file and to a file with one', () => {
    const a = memoryIo();
    emitReport(sample(), {}, { csv: '' }, a);
    expect(a.out.split('\n')[0]).toBe('System,Accuracy,Accuracy low,Accuracy high,Δ,p,N,OK');
    const b = memoryIo();
    emitReport(sample(), {}, { md: '-', csv: 'out.csv' }, b);
    expect(b.out.startsWith('# Sample')).toBe(true);
    expect(b.files.get('out.csv')).toContain('System,Accuracy');
  });

  it('refuses two formats on stdout and an --html without a file, before writing anything', () => {
    const io = memoryIo();
    expect(() => emitReport(sample(), {}, { json: true, csv: '' }, io)).toThrow(UserError);
    expect(() => emitReport(sample(), {}, { html: '' }, io)).toThrow(/--html needs a FILE/);
    expect(io.out).toBe('');
  });
});
