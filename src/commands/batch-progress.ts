import type { WaveProgress } from '../llm/batch/waves.js';

/**
 * The batch wait's progress on stderr: one line rewritten in place on a terminal,
 * otherwise a line whenever something changed (a batch wait lasts minutes to hours,
 * so a log that shows its course is worth the lines).
 */
export function batchProgressLine(stream: NodeJS.WriteStream = process.stderr): (p: WaveProgress) => void {
  let last = '';
  return (p) => {
    const states = Object.entries(p.states)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ');
    const line = `batch wave ${p.wave}: ${p.batches} batch(es) [${states}] · ${p.completed}/${p.submitted} completed, ${p.failed} failed`;
    if (line === last) return;
    last = line;
    if (stream.isTTY) stream.write(`\r\x1b[2K${line.slice(0, (stream.columns ?? 100) - 1)}`);
    else stream.write(`sqlboard: ${line}\n`);
  };
}
