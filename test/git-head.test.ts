import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitHead } from '../src/api/git-head.js';

/*
 * Provenance names the commit sqlboard runs from, read from git's files rather than by starting
 * git (src/api/git-head.ts). Each layout git writes must give what `git rev-parse HEAD` says.
 */

const hasGit = ((): boolean => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-git-head-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

/** gitHead with no git on PATH: its fallback cannot answer for it. */
function headWithoutGit(dir: string): string | undefined {
  const path = process.env.PATH;
  process.env.PATH = '';
  try {
    return gitHead(dir);
  } finally {
    process.env.PATH = path;
  }
}

describe.skipIf(!hasGit)('gitHead', () => {
  const repo = join(tmp, 'repo');
  const commit = (message: string): string => {
    writeFileSync(join(repo, 'f.txt'), message);
    git(repo, 'add', 'f.txt');
    git(repo, 'commit', '-q', '-m', message);
    return git(repo, 'rev-parse', 'HEAD');
  };

  it('reads a branch as a loose ref, then packed, then a detached HEAD, then a linked worktree', () => {
    git(tmp, 'init', '-q', repo);
    commit('one');
    expect(headWithoutGit(repo)).toBe(git(repo, 'rev-parse', 'HEAD'));
    const second = commit('two');
    git(repo, 'pack-refs', '--all');
    expect(headWithoutGit(repo)).toBe(second);
    const first = git(repo, 'rev-parse', 'HEAD~1');
    git(repo, 'checkout', '-q', '--detach', first);
    expect(headWithoutGit(repo)).toBe(first);
    const wt = join(tmp, 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'side', wt, second);
    git(repo, 'checkout', '-q', '--detach', second);
    expect(headWithoutGit(wt)).toBe(second);
    writeFileSync(join(wt, 'f.txt'), 'three');
    git(wt, 'commit', '-q', '-am', 'three');
    expect(headWithoutGit(wt)).toBe(git(wt, 'rev-parse', 'HEAD'));
    expect(headWithoutGit(wt)).not.toBe(second);
  });

  it('names no commit outside a checkout', () => {
    expect(headWithoutGit(join(tmp, 'nowhere'))).toBeUndefined();
  });
});
