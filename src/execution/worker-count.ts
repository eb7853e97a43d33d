import { availableParallelism, totalmem } from 'node:os';

/** Memory cap per execution process (--max-memory-mb) unless the user sets one. */
export const DEFAULT_MAX_MEMORY_MB = 1024;

/**
 * The most execution processes worth running: one per core (more only queue for them), and at
 * most as many as may each grow to `memoryMb` within half of the machine's memory.
 */
export function maxWorkers(memoryMb: number): number {
  return Math.min(availableParallelism(), Math.max(1, Math.floor(totalmem() / 2 / (memoryMb * 2 ** 20))));
}
