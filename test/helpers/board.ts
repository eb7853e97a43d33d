import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli } from './cli.js';

/**
 * A leaderboard CSV in the BIRD site's layout (date,model,affiliation,size,oracle_knowledge,dev,test)
 * with 40 made-up systems under long names, plus a human row without a dev score (skipped): for the
 * tests of how `leaderboard --board` renders. The real site's rows: test/fidelity/leaderboard-bird-site.
 */
export function writeSiteBoard(dir: string): string {
  const rows = ['date,model,affiliation,size,oracle_knowledge,dev,test', ',Human Performance,Data Engineers + DB Students,,✔️,,92.96'];
  for (let i = 0; i < 40; i++) {
    const dev = (60 + ((i * 7) % 20) + 0.37).toFixed(2);
    const test = (82 - i * 0.5).toFixed(2);
    rows.push(`"Sep ${1 + (i % 28)}, 2025",Agentic Text-to-SQL Pipeline ${i} + GPT-4o with self-consistency,"Lab ${i}, University",UNK,✔️,${dev},${test}`);
  }
  const file = join(dir, 'site-board.csv');
  writeFileSync(file, rows.join('\n') + '\n');
  return file;
}

/** What `leaderboard --board --json` prints (the fields these tests read). */
export interface BoardJson {
  threshold: number;
  sigmaGap: number;
  tauB: number | null;
  expectedTau: number | null;
  top: string;
  withinNoiseBoundOfTop: string[];
  noiseSplit: string;
  dev: { top: string | null; withinNoiseBoundOfTop: string[]; exceedingPairs: number };
  exceedingPairs: number;
  totalPairs: number;
  available: number;
  analysed: number;
  systems: { rank: number; name: string; dev: number; test: number; devRank: number; gapToTop: number; withinThresholdOfTop: boolean }[];
  pairs: { a: string; b: string; gap: number; exceedsThreshold: boolean; outperformProbability?: number }[];
  skipped: { name: string; line: number; reason: string }[];
  renamed: { from: string; to: string }[];
}

/** Runs `leaderboard ARGS --json`, expecting exit 0. */
export async function board(args: string[]): Promise<BoardJson> {
  const r = await runCli(['leaderboard', ...args, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as BoardJson;
}
