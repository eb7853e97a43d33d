import { readFileSync } from 'node:fs';

/** Resident memory of one process in bytes (VmRSS), 0 when it is gone. */
function rss(pid: number): number {
  try {
    const m = /\nVmRSS:\s*(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Samples the resident memory of a process and all its descendants every `everyMs` (Linux /proc):
 * the peak of their sum is what a run costs the machine, which `/usr/bin/time -v` cannot say (its
 * "Maximum resident set size" is the largest single process).
 */
export function watchTreeMemory(root: number, everyMs = 20): { stop(): { peakSum: number; peakSingle: number; samples: number } } {
  let peakSum = 0;
  let peakSingle = 0;
  let samples = 0;
  const timer = setInterval(() => {
    let sum = 0;
    const todo = [root];
    while (todo.length > 0) {
      const pid = todo.pop()!;
      const r = rss(pid);
      sum += r;
      peakSingle = Math.max(peakSingle, r);
      todo.push(...children(pid));
    }
    peakSum = Math.max(peakSum, sum);
    samples++;
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return { peakSum, peakSingle, samples };
    },
  };
}
