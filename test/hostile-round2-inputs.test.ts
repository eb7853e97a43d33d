import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readText } from '../src/benchmark/read-json.js';
import { InputFileError } from '../src/errors.js';
import { ROOT, runCli } from './helpers/cli.js';

const BUNDLED = join(ROOT, 'data', 'spider');
const C3 = join(BUNDLED, 'predictions', 'c3', 'predicted_sql.txt');
const dir = mkdtempSync(join(tmpdir(), 'sqlboard-inputs-'));
const fifo = join(dir, 'fifo');
execFileSync('mkfifo', [fifo]);
const zero = join(dir, 'zero.json');
symlinkSync('/dev/zero', zero);
const subdir = join(dir, 'a-directory');
mkdirSync(subdir);
const LONG = 120_000;

describe('devices, FIFOs and oversized files as inputs (issue 30, item 5)', () => {
  afterEach(() => {
    delete process.env.SQLBOARD_MAX_INPUT_MB;
  });

  it('the one reader refuses a FIFO, a link to /dev/zero, a directory and a file over the size limit, naming the file', () => {
    const problem = (f: string): string => {
      try {
        readText(f);
      } catch (e) {
        expect(e).toBeInstanceOf(InputFileError);
        expect((e as InputFileError).file).toBe(f);
        return (e as Error).message;
      }
      return 'read';
    };
    expect(problem(fifo)).toMatch(/FIFO \(named pipe\), not a regular file/);
    expect(problem(zero)).toMatch(/is a device, not a regular file/);
    expect(problem(subdir)).toMatch(/is a directory/);
    const big = join(dir, 'big.json');
    writeFileSync(big, ' '.repeat(3 * 2 ** 20));
    process.env.SQLBOARD_MAX_INPUT_MB = '2';
    expect(problem(big)).toMatch(/larger than 2 MiB, the input size limit \(SQLBOARD_MAX_INPUT_MB raises it\)/);
    delete process.env.SQLBOARD_MAX_INPUT_MB;
    expect(problem(big)).toBe('read');
  });

  it('score refuses them as --system, --questions, --tables and --flags (exit 2, no hang, no unbounded read)', async () => {
    const cases: [string[], string][] = [
      [['--system', `x=${zero}`], zero],
      [['--system', `x=${fifo}`], fifo],
      [['--questions', fifo, '--db-root', join(BUNDLED, 'database'), '--system', `x=${C3}`], fifo],
      [['--system', `x=${C3}`, '--tables', zero], zero],
      [['--system', `x=${C3}`, '--flags', fifo], fifo],
    ];
    for (const [args, file] of cases) {
      const r = await runCli(['score', '--metric', 'em', '--store', join(dir, 'store.db'), ...args]);
      expect(r.stderr, args.join(' ')).toContain(`${file}: is a`);
      expect(r.code, args.join(' ')).toBe(2);
    }
  }, LONG);

  it('leaderboard refuses them as --board and as verdict files', async () => {
    for (const args of [['--board', zero, '--n', '1534', '--flawed', '564'], [fifo]]) {
      const r = await runCli(['leaderboard', ...args]);
      expect(r.stderr).toMatch(/: is a (device|FIFO)/);
      expect(r.code).toBe(2);
    }
  }, LONG);

  it('no module but input-file.ts reads a file the user names (package files, /proc and databases aside)', () => {
    const allowed = new Set([
      'src/benchmark/input-file.ts',
      'src/api/provenance.ts', // this package's package.json
      'src/api/git-head.ts', // this package's .git
      'src/benchmark/bundled.ts', // this package's bundled manifest
      'src/execution/process-memory.ts', // /proc/<pid>/statm
      'src/execution/dqs.ts', // the package.json of the folder it loads the DQS extension from
    ]);
    const files = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : e.name.endsWith('.ts') ? [join(d, e.name)] : []));
    const readers = files(join(ROOT, 'src'))
      .filter((f) => /\b(readFileSync|createReadStream|readFile)\s*\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f))
      .filter((f) => !allowed.has(f));
    expect(readers).toEqual([]);
  });
});

describe('invalid UTF-8 in an input file (issue 30, item 10)', () => {
  it('is refused with its line and byte offset, as the official readers raise, instead of running U+FFFD', async () => {
    const lines = readFileSync(C3, 'utf8').split('\n');
    const head = Buffer.from(`${lines.slice(0, 2).join('\n')}\nSELECT name FROM singer WHERE name = '`, 'utf8');
    const file = join(dir, 'latin1.sql');
    writeFileSync(file, Buffer.concat([head, Buffer.from([0xe9]), Buffer.from(`'\n${lines.slice(3).join('\n')}`, 'utf8')]));
    const r = await runCli(['score', '--metric', 'em', '--store', join(dir, 'store.db'), '--system', `x=${file}`]);
    expect(r.stderr).toContain(`${file}:3: is not valid UTF-8 (first invalid byte at offset ${head.length}, 0xe9)`);
    expect(r.code).toBe(2);
    // Valid UTF-8 of every length still reads, as does a BOM.
    const ok = join(dir, 'ok.txt');
    writeFileSync(ok, '\ufeffé€𝄞 \u0000 ok');
    expect(readText(ok)).toBe('é€𝄞 \u0000 ok');
    // An overlong encoding and a UTF-8-encoded surrogate are not UTF-8 (Python refuses both).
    for (const bad of [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]]) {
      writeFileSync(ok, Buffer.from([0x61, 0x0a, ...bad]));
      expect(() => readText(ok)).toThrow(/:2: is not valid UTF-8 \(first invalid byte at offset 2/);
    }
  }, LONG);
});
