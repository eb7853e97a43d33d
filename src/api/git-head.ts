import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';

const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

const read = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * The commit HEAD names in the checkout at `dir` (a `.git` folder, or a worktree's `.git` file
 * pointing at its git dir), read from git's own files: loose ref in the worktree's or the common git
 * dir, else packed-refs. Starting `git rev-parse HEAD` cost ~25 ms at the end of every run. Anything
 * this does not read (a reftable repository, a symbolic ref to a symbolic ref) asks git after all.
 */
export function gitHead(dir: string): string | undefined {
  const dotGit = join(dir, '.git');
  if (!existsSync(dotGit)) return undefined;
  const pointer = statSync(dotGit).isFile() ? /^gitdir: (.+)$/m.exec(read(dotGit) ?? '')?.[1]?.trim() : undefined;
  const gitDir = pointer ? (isAbsolute(pointer) ? pointer : resolve(dir, pointer)) : dotGit;
  const common = read(join(gitDir, 'commondir'))?.trim();
  const commonDir = common ? resolve(gitDir, common) : gitDir;
  const head = read(join(gitDir, 'HEAD'))?.trim() ?? '';
  if (COMMIT.test(head)) return head;
  const ref = /^ref: (refs\/\S+)$/.exec(head)?.[1];
  if (ref) {
    const loose = (read(join(gitDir, ref)) ?? read(join(commonDir, ref)))?.trim();
    if (loose && COMMIT.test(loose)) return loose;
    const packed = (read(join(commonDir, 'packed-refs')) ?? '').split('\n').find((l) => l.endsWith(` ${ref}`))?.split(' ')[0];
    if (packed && COMMIT.test(packed)) return packed;
  }
  return askGit(dir);
}

function askGit(dir: string): string | undefined {
  try {
    // Loaded here: node:child_process costs every command's start-up otherwise.
    const { execFileSync } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
    return execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim() || undefined;
  } catch {
    // No git on this machine: the version alone names the code.
    return undefined;
  }
}
