#!/usr/bin/env node
// The CLI is bundled into dist/cli/ (built by `npm install` through the prepare script, or `npm run build`).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const entry = join(root, 'dist', 'cli', 'sqlboard.js');
// The build writes verbs.json last: without it dist/cli/ is missing or half built.
const verbsFile = join(root, 'dist', 'cli', 'verbs.json');
if (!existsSync(entry) || !existsSync(verbsFile)) {
  process.stderr.write('sqlboard: dist/ is missing; run `npm run build` (or `npm install`) in ' + root + '\n');
  process.exit(2);
}
// A cold `score` starts its execution processes first thing, so they boot while the CLI loads
// (dist/src/execution/prespawn-when.js says when; neither module needs the CLI's dependencies, and
// prespawn.js, which loads child_process, is loaded only then: not for `score --help`).
if (args[0] === 'score') {
  const execution = join(root, 'dist', 'src', 'execution');
  const { prespawnWanted } = await import(pathToFileURL(join(execution, 'prespawn-when.js')).href);
  if (prespawnWanted(args)) (await import(pathToFileURL(join(execution, 'prespawn.js')).href)).prespawnFor(args);
}
// A command runs from its verb's one-file bundle (dist/cli/verb-<verb>.js, see scripts/bundle-cli.ts):
// the verb is found as commands/index.ts finds it, the first argument naming one. Help and the
// version, and a run naming no verb, go through the split bundle (entry), which loads only what
// they print. Both bundles are built from the same source and behave alike: the choice is speed.
const verbs = JSON.parse(readFileSync(verbsFile, 'utf8'));
const verb = args.find((a) => verbs.includes(a));
const printsOnly = args.some((a) => a === '--help' || a === '-h' || a === '--version');
await import(pathToFileURL(verb === undefined || printsOnly ? entry : join(root, 'dist', 'cli', `verb-${verb}.js`)).href);
