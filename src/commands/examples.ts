/**
 * The examples every command's `--help` ends with. Each runs as written from the sqlboard folder (a
 * clone, or node_modules/sqlboard) on the bundled data, offline; test/readme-recipes.test.ts runs
 * every one and docs/commands/<verb>.md shows them (scripts/gen-docs.ts).
 */
export interface HelpExample {
  /** The command line, `$0` standing for `sqlboard`. */
  command: string;
  /** What it shows. */
  description: string;
}

const C3 = 'c3=data/spider/predictions/c3/predicted_sql.txt';
const EX = 'validation-sets/example';
const JUDGE_OFFLINE = `--questions ${EX}/questions.json --db-root data/spider/database --system sub=${EX}/predictions.sql --provider replay`;

export const HELP_EXAMPLES = {
  score: [
    { command: '$0 score', description: 'The bundled Spider dev set and its 23 published systems' },
    { command: `$0 score --system ${C3} --items c3.jsonl`, description: 'One submission; --items keeps one line per task for leaderboard' },
    { command: `$0 score --system ${C3} --by db --html c3.html`, description: 'Scores per database, and an HTML report with the per-task explorer' },
  ],
  leaderboard: [
    { command: '$0 score --items all.jsonl && $0 leaderboard all.jsonl --flags data/spider/audit/flags.csv --html board.html', description: 'Ranks with intervals and paired tests from per-item records, clean subset included' },
    {
      command: "printf 'model,dev,test\\nA,70.1,72.3\\nB,68.9,71.0\\nC,65.2,69.4\\n' > board.csv && $0 leaderboard --board board.csv --n 1534 --flawed 564",
      description: 'A published board (columns model, dev, test in percent): which gaps exceed the noise threshold g*',
    },
  ],
  judge: [
    { command: `$0 judge ${JUDGE_OFFLINE} --model backbone-a --replay ${EX}/backbone-a.replay.jsonl`, description: 'Offline, from a recorded run: no key, no network' },
    { command: `$0 judge ${JUDGE_OFFLINE} --model backbone-b --replay ${EX}/backbone-b.replay.jsonl --items b.jsonl --html judge.html`, description: 'Per-item verdicts for validate or leaderboard, and the explorer' },
  ],
  validate: [
    {
      command: `$0 validate --set ${EX}/spider-dev-8.jsonl --provider replay --model backbone-a --replay ${EX}/backbone-a.replay.jsonl --db-root data/spider/database`,
      description: 'One judge, run live from a recording, against the human labels',
    },
    {
      command: `$0 judge ${JUDGE_OFFLINE} --model backbone-b --replay ${EX}/backbone-b.replay.jsonl --items b.jsonl && $0 validate --set ${EX}/spider-dev-8.jsonl --judge backbone-b=b.jsonl --provider replay --model backbone-a --replay ${EX}/backbone-a.replay.jsonl --db-root data/spider/database`,
      description: 'Two backbones compared: κ, MCC, F1 with intervals, Δκ and McNemar',
    },
  ],
  audit: [
    {
      command: '$0 audit --questions data/spider/dev.json --db-root data/spider/database --agent c3=data/spider/predictions/c3/predicted_sql.txt --agent din-sql=data/spider/predictions/din-sql/DIN-SQL.csv --agent dail-sql=data/spider/predictions/dail-sql/DAIL-SQL+GPT-4.txt',
      description: 'Flags gold SQL that three systems\' SQL suggests is wrong',
    },
    {
      command: '$0 audit --questions data/spider/dev.json --db-root data/spider/database --agent c3=data/spider/predictions/c3/predicted_sql.txt --agent din-sql=data/spider/predictions/din-sql/DIN-SQL.csv --agent resdsql=data/spider/predictions/resdsql/RESDSQL_3B.sql --out audit',
      description: 'Writes flags.csv (for score/leaderboard --flags), review.csv and tasks.jsonl to audit/',
    },
  ],
  stats: [
    { command: '$0 stats gap --n 1534 --flawed 564', description: 'The smallest accuracy gap that noise in the gold cannot explain (SALUS on BIRD dev)' },
    { command: '$0 stats interval --k 803 --n 1034', description: 'Wilson and Clopper–Pearson intervals for 803 of 1,034 correct' },
    { command: '$0 stats detector --tp 40 --fp 10 --fn 20 --tn 130', description: 'A gold-error detector against labels: precision, recall, F1, MCC and their floors' },
  ],
  'stats gap': [
    { command: '$0 stats gap --n 1534 --flawed 564', description: 'g* for BIRD dev with SALUS\'s 564 flawed tasks' },
    { command: '$0 stats gap --n 1034 --error-rate 0.25 --confidence 0.99', description: 'From an error rate instead, at 99%' },
  ],
  'stats prevalence': [
    { command: '$0 stats prevalence --n 1034 --flagged 252 --tp 40 --fp 10 --fn 20 --tn 130', description: 'The error rate implied by 252 flags and a labelled sample of the detector' },
  ],
  'stats detector': [
    { command: '$0 stats detector --tp 40 --fp 10 --fn 20 --tn 130', description: 'Precision, recall, F1, MCC, specificity and their floors' },
  ],
  'stats interval': [
    { command: '$0 stats interval --k 803 --n 1034', description: 'Wilson and Clopper–Pearson intervals' },
    {
      command: `$0 score --system ${C3} --metric ex,soft-f1 --items c3.jsonl > /dev/null && $0 stats interval --items c3.jsonl --metric soft-f1`,
      description: 'A bootstrap interval of a continuous metric from score --items',
    },
  ],
  'stats agreement': [
    {
      command: `$0 score --system ${C3} --items c3.jsonl > /dev/null && $0 score --system din-sql=data/spider/predictions/din-sql/DIN-SQL.csv --items din-sql.jsonl > /dev/null && $0 stats agreement c3.jsonl din-sql.jsonl`,
      description: "How alike two label files are (here two systems' EX verdicts): κ, MCC, accuracy",
    },
  ],
  'import rose': [
    { command: `$0 import rose ${EX}/rose-run --system backbone-a`, description: 'A ROSE output directory (here a hand-written one) as per-item verdicts' },
    {
      command: `$0 import rose ${EX}/rose-run --system backbone-a --out rose-a.jsonl && $0 validate --set ${EX}/spider-dev-8.jsonl --judge backbone-a=rose-a.jsonl`,
      description: 'Its verdicts against the human labels',
    },
  ],
  'batch status': [
    { command: '$0 batch status', description: "The default run store's provider batches (none until judge or audit ran with --batch)" },
    { command: '$0 batch status --json', description: 'The same as JSON' },
  ],
} satisfies Record<string, HelpExample[]>;

export type ExampleVerb = keyof typeof HELP_EXAMPLES;

/** Width a help line may take: a command longer than that goes on with ` \` lines, which a shell reads as one. */
const LINE = 96;

/** One command as shell lines no wider than LINE, broken only between arguments (a quoted string stays whole). */
export function shellLines(command: string, indent = '  '): string[] {
  const words = command.replace(/\$0/g, 'sqlboard').match(/'[^']*'\S*|\S+/g) ?? [];
  const lines: string[] = [];
  let line = indent;
  for (const w of words) {
    if (line.trim() !== '' && line.length + 1 + w.length + 2 > LINE) {
      lines.push(`${line} \\`);
      line = `${indent}  ${w}`;
    } else line = line.trim() === '' ? `${indent}${w}` : `${line} ${w}`;
  }
  lines.push(line);
  return lines;
}

/** A verb's examples as its help prints them: each a `#` comment, then the command, ready to paste. */
export function examplesText(verb: ExampleVerb): string {
  const blocks = (HELP_EXAMPLES[verb] as HelpExample[]).map((e) => [`  # ${e.description}`, ...shellLines(e.command)].join('\n'));
  return ['Examples (in the sqlboard folder, offline, on the bundled data):', ...blocks].join('\n');
}

/**
 * Adds a verb's examples to the end of its yargs help, as an epilogue: yargs' own example column
 * wraps long commands mid-argument, which breaks them when pasted.
 */
export function withExamples<T extends { epilogue: (text: string) => T }>(y: T, verb: ExampleVerb): T {
  return y.epilogue(examplesText(verb));
}
