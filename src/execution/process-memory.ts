import { readFileSync } from 'node:fs';

/**
 * Resident memory of a process in bytes, from /proc/<pid>/status (VmRSS), or undefined where
 * there is no /proc (not Linux) or the process is gone. Read from outside the process: the
 * execution processes' SQLite (better-sqlite3 is built without SQLite's memory accounting, so its
 * heap limits do nothing) can grab gigabytes inside one native step that JavaScript never sees.
 */
export function residentBytes(pid: number): number | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return undefined;
  }
  const m = /\nVmRSS:\s*(\d+) kB/.exec(text);
  return m ? Number(m[1]) * 1024 : undefined;
}

/** Whether this system lets residentBytes see other processes. */
export function canMeasureMemory(): boolean {
  return residentBytes(process.pid) !== undefined;
}
