import { closeSync, openSync, readFileSync, readSync } from 'node:fs';

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
  const memory = new ResidentMemory(pid);
  try {
    return memory.read();
  } finally {
    memory.close();
  }
}

/** Whether this system lets residentBytes see other processes. */
export function canMeasureMemory(): boolean {
  return residentBytes(process.pid) !== undefined;
}

/**
 * One process's resident memory (residentBytes), from its statm kept open: each
 * reading is one pread at position 0 (the kernel writes the line afresh) and no string, where
 * reading the file by its name was an open, reads, a close and a string, for every child 50 times
 * a second. The open file stays that process's: a later process given the same pid is not read.
 */
export class ResidentMemory {
  private fd: number | undefined;
  private gone = false;
  private readonly line = Buffer.allocUnsafe(160);

  constructor(private readonly pid: number) {}

  /** Bytes resident, or undefined where there is no /proc or the process is gone. */
  read(): number | undefined {
    const page = pageSize();
    if (page === undefined || this.gone) return undefined;
    let n: number;
    try {
      this.fd ??= openSync(`/proc/${this.pid}/statm`, 'r');
      n = readSync(this.fd, this.line, 0, this.line.length, 0);
    } catch (e) {
      // Gone (ESRCH once reaped, ENOENT before it was opened): it stays gone. Anything else (EMFILE,
      // EINTR) says nothing of the process: the next reading opens the file again, so that the
      // memory cap is not lost for good.
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ESRCH' || code === 'ENOENT') this.gone = true;
      this.close();
      return undefined;
    }
    const pages = secondField(this.line, n);
    return pages === undefined ? undefined : pages * page;
  }

  /** Lets go of the open file (the pool calls it when the process leaves). */
  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // nothing to release
    }
    this.fd = undefined;
  }
}

/** The second space-separated decimal number of a statm line (its first `n` bytes), or undefined. */
function secondField(line: Buffer, n: number): number | undefined {
  let i = line.indexOf(0x20);
  if (i < 0 || i >= n) return undefined;
  let value = 0;
  let digits = 0;
  for (i++; i < n; i++, digits++) {
    const c = line[i]!;
    if (c < 0x30 || c > 0x39) break;
    value = value * 10 + (c - 0x30);
  }
  return digits > 0 ? value : undefined;
}
