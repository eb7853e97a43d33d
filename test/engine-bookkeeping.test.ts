import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canMeasureMemory, residentBytes, ResidentMemory } from '../src/execution/process-memory.js';
import { ExecutionStore } from '../src/execution/result-store.js';
import { selectCount } from '../src/execution/select-count.js';
import type { WireResult } from '../src/execution/pool-protocol.js';
import { openRunStore } from '../src/store/run-store.js';
import { SPIDER } from './helpers/cli.js';

describe('the engine\'s cost guess', () => {
  it('counts SELECT as /\\bselect\\b/gi does, on every Spider dev gold and bundled prediction and on edge cases', () => {
    const regex = (sql: string): number => sql.match(/\bselect\b/gi)?.length ?? 0;
    const texts: string[] = (JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as { query: string }[]).map((t) => t.query);
    const predictions = join(SPIDER, 'predictions');
    for (const dir of readdirSync(predictions, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)) {
      for (const file of readdirSync(join(predictions, dir))) {
        if (/\.(txt|sql)$/.test(file)) texts.push(...readFileSync(join(predictions, dir, file), 'utf8').split('\n'));
      }
    }
    texts.push(
      'select',
      'SELECT',
      'sElEcT 1',
      'SELECTED',
      'preselect',
      '_select',
      'select_',
      'select1',
      '1select',
      '(select)',
      'x.select.y',
      'selectselect',
      'select select',
      '\u017Felect', // long s: /i without u does not fold it to s
      'sel\u00E9ct',
      'SELECT\u00E9',
      '',
      'selec',
      '[SELECT]',
      'a\tSELECT\nSELECT',
    );
    expect(texts.length).toBeGreaterThan(10_000);
    const differ = texts.filter((t) => selectCount(t) !== regex(t));
    expect(differ).toEqual([]);
  });
});

describe('run-store lookups', () => {
  const wire = (n: number): WireResult => ({ status: 'ok', columns: ['n'], ms: 1, rowsJson: `[[${n}]]`, rowSet: `digest-${n}` });

  it('on a store that was empty when opened, finds what it saved once written, and nothing else', () => {
    const store = openRunStore(join(mkdtempSync(join(tmpdir(), 'sqlboard-lookups-')), 'run.db'));
    try {
      const exec = new ExecutionStore(store);
      const keys = [0, 1, 2].map((n) => ExecutionStore.key('sha', `SELECT ${n}`, 100, 1000));
      exec.save(keys[0]!, 'sha', 'SELECT 0', wire(0), 30_000, 100);
      exec.save(keys[1]!, 'sha', 'SELECT 1', wire(1), 30_000, 100);
      exec.flush();
      const found = exec.lookupMany(keys, 30_000);
      expect([...found.keys()].sort()).toEqual([keys[0], keys[1]].sort());
      expect(found.get(keys[1]!)!.rows).toEqual([[1]]);
      expect(exec.lookupMany(keys, 30_000, false).get(keys[0]!)!.rowSet).toBe('digest-0');
    } finally {
      store.close();
    }
  });

  it('on a store that held executions when opened, finds every kept one (a re-run, a resumed run)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sqlboard-lookups-')), 'run.db');
    const keys = [0, 1].map((n) => ExecutionStore.key('sha', `SELECT ${n}`, 100, 1000));
    const first = openRunStore(file);
    try {
      const exec = new ExecutionStore(first);
      keys.forEach((k, n) => exec.save(k, 'sha', `SELECT ${n}`, wire(n), 30_000, 100));
      exec.flush();
    } finally {
      first.close();
    }
    const again = openRunStore(file);
    try {
      const found = new ExecutionStore(again).lookupMany([...keys, 'absent'], 30_000);
      expect([...found.keys()].sort()).toEqual([...keys].sort());
      expect(found.get(keys[0]!)!.rows).toEqual([[0]]);
    } finally {
      again.close();
    }
  });
});

describe('resident memory read from a statm kept open', () => {
  it.runIf(canMeasureMemory())('reads what /proc/<pid>/statm says, afresh each time, and nothing once the process is gone', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    const memory = new ResidentMemory(child.pid!);
    try {
      // A stopped process's resident memory holds still: the kept-open reading equals a reading by name.
      await new Promise((resolve) => child.once('spawn', resolve));
      child.kill('SIGSTOP');
      while (!/^\d+ \(.*\) T/.test(readFileSync(`/proc/${child.pid}/stat`, 'latin1'))) await new Promise((resolve) => setTimeout(resolve, 5));
      const first = memory.read();
      expect(first).toBeGreaterThan(0);
      expect(memory.read()).toBe(residentBytes(child.pid!));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      expect(memory.read()).toBeUndefined();
    } finally {
      child.kill('SIGKILL');
      memory.close();
    }
    // This process, before and after 64 MiB are touched: the same open file sees them (at least half,
    // should the allocation set off a collection that returns other memory meanwhile).
    const self = new ResidentMemory(process.pid);
    try {
      const before = self.read()!;
      const held = Buffer.alloc(64 * 2 ** 20, 1);
      expect(self.read()! - before).toBeGreaterThanOrEqual(32 * 2 ** 20);
      expect(held[held.length - 1]).toBe(1);
    } finally {
      self.close();
    }
  });
});
