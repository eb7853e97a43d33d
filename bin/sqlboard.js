#!/usr/bin/env node
// The CLI is bundled into dist/cli/ (built by `npm install` through the prepare script, or `npm run build`).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const entry = join(root, 'dist', 'cli', 'sqlboard.js');
if (!existsSync(entry)) {
  process.stderr.write('sqlboard: dist/ is missing; run `npm run build` (or `npm install`) in ' + root + '\n');
  process.exit(2);
}
// A cold `score` starts its execution processes first thing, so they boot while the CLI loads
// (dist/src/execution/prespawn-when.js says when; neither module needs the CLI's dependencies, and
// prespawn.js, which loads child_process, is loaded only then: not for `score --help`).
if (process.argv[2] === 'score') {
  const args = process.argv.slice(2);
  const execution = join(root, 'dist', 'src', 'execution');
  const { prespawnWanted } = await import(pathToFileURL(join(execution, 'prespawn-when.js')).href);
  if (prespawnWanted(args)) (await import(pathToFileURL(join(execution, 'prespawn.js')).href)).prespawnFor(args);
}
await import(pathToFileURL(entry).href);
