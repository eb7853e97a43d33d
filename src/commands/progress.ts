import { createRequire } from 'node:module';
import { EtaEstimator, formatEta } from '../report/eta.js';

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/**
 * A progress bar (done/total, rate, ETA) on stderr, only when stderr is a terminal, so
 * piped or `--json` runs keep their streams clean. Rate and ETA are smoothed (EtaEstimator).
 */
export function terminalProgress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return { update: () => {}, stop: () => {} };
  // Loaded only for a terminal: piped and --json runs, and every test, never draw a bar.
  const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${label} [{bar}] {value}/{total} | {rate}/s | ETA {eta}`,
      hideCursor: true,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let eta: EtaEstimator | undefined;
  return {
    update(done, total) {
      const now = Date.now();
      if (!started) {
        bar.start(total, done, { rate: '?', eta: '?' });
        eta = new EtaEstimator(now, done);
        started = true;
      }
      const rate = eta!.update(done, now);
      bar.setTotal(total);
      bar.update(done, { rate: rate === undefined ? '?' : rate.toFixed(0), eta: formatEta(eta!.secondsLeft(total - done)) });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
