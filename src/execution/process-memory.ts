import { readFileSync } from 'node:fs';

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return undefined;
  }
}

let pageBytes: number | undefined;

/**
 * statm counts pages: their size (4 KiB on x86-64, up to 64 KiB on some arm64 kernels) is found
 * once by comparing this process's statm with the VmRSS of its /proc/self/status.
 */
function pageSize(): number | undefined {
  if (pageBytes !== undefined) return pageBytes;
  const kb = /\nVmRSS:\s*(\d+) kB/.exec(read('/proc/self/status') ?? '');
  const pages = Number((read('/proc/self/statm') ?? '').split(' ', 2)[1]);
  if (!kb || !(pages > 0)) return undefined;
  pageBytes = 2 ** Math.round(Math.log2((Number(kb[1]) * 1024) / pages));
  return pageBytes;
}

/**
 * Resident memory of a process in bytes, from /proc/<pid>/statm (its second field, the figure
 * /proc/<pid>/status calls VmRSS, in a line that is cheaper to produce and read: the pool reads
 * it for every child 50 times a second), or undefined where there is no /proc (not Linux) or the
 * process is gone. Read from outside the process: the execution processes' SQLite (better-sqlite3
 * is built without SQLite's memory accounting, so its heap limits do nothing) can grab gigabytes
 * inside one native step that JavaScript never sees.
 */
export function residentBytes(pid: number): number | undefined {
  const page = pageSize();
  const text = page === undefined ? undefined : read(`/proc/${pid}/statm`);
  if (text === undefined) return undefined;
  const pages = Number(text.split(' ', 2)[1]);
  return Number.isFinite(pages) ? pages * page! : undefined;
}

/** Whether this system lets residentBytes see other processes. */
export function canMeasureMemory(): boolean {
  return residentBytes(process.pid) !== undefined;
}
