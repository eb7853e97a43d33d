import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
