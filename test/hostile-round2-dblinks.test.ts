import { mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './helpers/cli.js';

const BUNDLED = join(ROOT, 'data', 'spider');

describe('databases reached through links outside --db-root (issue 30, also noted)', () => {
  it('are read where they point, and the run says so once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-dblinks-'));
    const root = join(dir, 'dbroot');
    mkdirSync(root);
    // One database directory is a link, another a real directory holding a linked file.
    const dbs = readdirSync(join(BUNDLED, 'database'));
    for (const db of dbs) {
      if (db === 'concert_singer') {
        mkdirSync(join(root, db));
        symlinkSync(join(BUNDLED, 'database', db, `${db}.sqlite`), join(root, db, `${db}.sqlite`));
      } else symlinkSync(join(BUNDLED, 'database', db), join(root, db));
    }
    const args = ['score', '--metric', 'ex', '--db-root', root, '--questions', join(BUNDLED, 'dev.json'), '--system', `c3=${join(BUNDLED, 'predictions', 'c3', 'predicted_sql.txt')}`, '--store', join(dir, 'store.db')];
    const r = await runCli(args);
    expect(r.code).toBe(0);
    const notes = r.stderr.split('\n').filter((l) => l.includes('resolve outside it through links'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain(`→ ${join(BUNDLED, 'database')}`);
    // Read from the bundled --db-root itself: no such note.
    const plain = await runCli(['score', '--metric', 'ex', '--system', `c3=${join(BUNDLED, 'predictions', 'c3', 'predicted_sql.txt')}`, '--store', join(dir, 'store.db')]);
    expect(plain.code).toBe(0);
    expect(plain.stderr).not.toContain('resolve outside');
  }, 300_000);
});
