/**
 * Writes the generated part of every command page, docs/commands/<verb>.md: usage, the options (from
 * the same tables the CLI builds its flags from: src/api/*-options.ts, the output flags, --fail-under)
 * and the examples its --help ends with (src/commands/examples.ts). Only the part between the page's
 * `<!-- generated:start -->` and `<!-- generated:end -->` lines is rewritten; the prose around it is
 * written by hand. `npm run docs` runs it; test/docs.test.ts fails when a page is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OptionSpec, OptionTable } from '../src/api/option-table.js';
import { AUDIT_OPTIONS } from '../src/api/audit-options.js';
import { BATCH_STATUS_OPTIONS } from '../src/api/batch-status-options.js';
import { IMPORT_ROSE_OPTIONS } from '../src/api/import-rose-options.js';
import { JUDGE_OPTIONS } from '../src/api/judge-options.js';
import { LEADERBOARD_OPTIONS } from '../src/api/leaderboard-options.js';
import { SCORE_OPTIONS } from '../src/api/score-options.js';
import { VALIDATE_OPTIONS } from '../src/api/validate-options.js';
import { HELP_EXAMPLES, shellLines, type ExampleVerb, type HelpExample } from '../src/commands/examples.js';
import { REPORT_OPTIONS } from '../src/commands/report-options.js';
import { SCORE_FAIL_UNDER } from '../src/commands/score.js';
import { LEADERBOARD_FAIL_UNDER } from '../src/commands/leaderboard.js';
import { STATS_SUBCOMMANDS } from '../src/commands/stats.js';
import { VERBS } from '../src/commands/verbs.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const START = '<!-- generated:start -->';
export const END = '<!-- generated:end -->';

interface Section {
  usage: string;
  describe: string;
  positionals?: [string, string][];
  options: OptionTable;
}

interface Page {
  file: string;
  sections: Section[];
  /** Whose --help examples the page shows (stats: the verb's and each subcommand's). */
  examples: ExampleVerb | ExampleVerb[];
}

const withFailUnder = (table: OptionTable, describe: string): OptionTable => ({ ...table, 'fail-under': { type: 'string', array: true, describe } });

export const PAGES: Page[] = [
  { file: 'score.md', examples: 'score', sections: [{ usage: 'sqlboard score [options]', describe: VERBS.score.describe, options: withFailUnder(SCORE_OPTIONS, SCORE_FAIL_UNDER) }] },
  {
    file: 'leaderboard.md',
    examples: 'leaderboard',
    sections: [
      {
        usage: 'sqlboard leaderboard [files..] [options]',
        describe: VERBS.leaderboard.describe,
        positionals: [['files', 'Per-item verdict files (JSONL from score/judge --items)']],
        options: withFailUnder(LEADERBOARD_OPTIONS, LEADERBOARD_FAIL_UNDER),
      },
    ],
  },
  { file: 'judge.md', examples: 'judge', sections: [{ usage: 'sqlboard judge [options]', describe: VERBS.judge.describe, options: JUDGE_OPTIONS }] },
  { file: 'validate.md', examples: 'validate', sections: [{ usage: 'sqlboard validate [options]', describe: VERBS.validate.describe, options: VALIDATE_OPTIONS }] },
  { file: 'audit.md', examples: 'audit', sections: [{ usage: 'sqlboard audit [options]', describe: VERBS.audit.describe, options: AUDIT_OPTIONS }] },
  {
    file: 'stats.md',
    examples: ['stats', 'stats gap', 'stats prevalence', 'stats detector', 'stats interval', 'stats agreement'],
    sections: STATS_SUBCOMMANDS.map((s) => ({
      usage: `sqlboard stats ${s.command} [options]`,
      describe: s.describe,
      ...(s.command.startsWith('agreement') ? { positionals: [['a', 'First label file (.jsonl item records, or .csv)'], ['b', 'Second label file']] as [string, string][] } : {}),
      options: s.options as OptionTable,
    })),
  },
  {
    file: 'import-rose.md',
    examples: 'import rose',
    sections: [
      {
        usage: 'sqlboard import rose <dir> [options]',
        describe: 'Import a recorded ROSE run (eval_results.json + prover/refuter outputs) as per-item verdicts',
        positionals: [['dir', 'ROSE output directory (holds eval_results.json)']],
        options: IMPORT_ROSE_OPTIONS,
      },
    ],
  },
  { file: 'batch-status.md', examples: 'batch status', sections: [{ usage: 'sqlboard batch status [options]', describe: "Lists the run store's provider batches with their last polled state (no request is made)", options: BATCH_STATUS_OPTIONS }] },
];

/** Help text as Markdown: one line, pipes escaped, `<db_id>` shown as text rather than read as HTML. */
const cell = (s: string): string =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');

function kind(spec: OptionSpec): string {
  const base = spec.choices ? spec.choices.map((c) => `\`${c}\``).join(', ') : (spec.type ?? 'string');
  return spec.array ? `${base} (repeatable)` : base;
}

function dflt(spec: OptionSpec): string {
  if (spec.default === undefined) return spec.demandOption ? 'required' : '';
  const v = Array.isArray(spec.default) ? spec.default.join(',') : String(spec.default);
  return `\`${v}\``;
}

function optionRows(table: OptionTable): string[] {
  return Object.entries(table).map(([name, spec]) => {
    const flag = `\`--${name}\`${spec.alias ? `, \`-${spec.alias}\`` : ''}`;
    return `| ${flag} | ${cell(kind(spec))} | ${dflt(spec)} | ${cell(spec.describe)} |`;
  });
}

function renderSection(s: Section, multiple: boolean): string[] {
  const h = multiple ? '###' : '##';
  const out = [`${h} ${multiple ? `\`${s.usage.replace(/ \[options\]$/, '')}\`` : 'Usage'}`, '', '```sh', s.usage, '```', '', cell(s.describe) + '.', ''];
  if (s.positionals) out.push(...s.positionals.map(([n, d]) => `- \`${n}\`: ${d}`), '');
  out.push('| option | type | default | what it does |', '|---|---|---|---|', ...optionRows(s.options));
  out.push(...Object.entries(REPORT_OPTIONS).map(([name, spec]) => `| \`--${name}\` | ${spec.type} |  | ${cell(spec.describe)} |`), '');
  return out;
}

/** The generated part of one page, markers included. */
export function generated(page: Page): string {
  const multiple = page.sections.length > 1;
  const lines = [START, '<!-- Written by scripts/gen-docs.ts (`npm run docs`) from the option tables the CLI uses; edit those, not this part. -->', ''];
  if (multiple) lines.push('## Usage', '');
  for (const s of page.sections) lines.push(...renderSection(s, multiple));
  lines.push('## Examples', '', 'In the sqlboard folder, offline, on the bundled data (the same as `--help` shows):', '', '```sh');
  const verbs = Array.isArray(page.examples) ? page.examples : [page.examples];
  const examples = verbs.flatMap((v) => HELP_EXAMPLES[v] as HelpExample[]).filter((e, i, all) => all.findIndex((x) => x.command === e.command) === i);
  examples.forEach((e, i) => {
    if (i > 0) lines.push('');
    lines.push(`# ${e.description}`, ...shellLines(e.command, ''));
  });
  lines.push('```', END);
  return lines.join('\n');
}

/** The page with its generated part brought up to date. */
export function regenerate(page: Page, text: string): string {
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`docs/commands/${page.file}: no ${START} … ${END} block`);
  return text.slice(0, a) + generated(page) + text.slice(b + END.length);
}

export const pagePath = (page: Page): string => join(ROOT, 'docs', 'commands', page.file);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const page of PAGES) {
    const file = pagePath(page);
    const before = readFileSync(file, 'utf8');
    const after = regenerate(page, before);
    if (after !== before) writeFileSync(file, after);
    console.log(`${after === before ? 'up to date' : 'wrote'} docs/commands/${page.file}`);
  }
}
