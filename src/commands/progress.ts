import { createRequire } from 'node:module';

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/**
 * A progress bar (done/total, rate, ETA) on stderr, only when stderr is a terminal, so
 * piped or `--json` runs keep their streams clean.
 */
export function terminalProgress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return { update: () => {}, stop: () => {} };
  // Loaded only for a terminal: piped and --json runs, and every test, never draw a bar.
  const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${label} [{bar}] {value}/{total} | {rate}/s | ETA {eta_formatted}`,
      hideCursor: true,
      etaBuffer: 200,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const t0 = Date.now();
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, done, { rate: '0' });
        started = true;
      }
      const secs = (Date.now() - t0) / 1000;
      bar.setTotal(total);
      bar.update(done, { rate: secs > 0 ? (done / secs).toFixed(0) : '0' });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
