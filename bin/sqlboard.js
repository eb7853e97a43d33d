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
// (dist/src/execution/prespawn.js says when; it needs none of the CLI's dependencies).
if (process.argv[2] === 'score') {
  const { prespawnFor } = await import(pathToFileURL(join(root, 'dist', 'src', 'execution', 'prespawn.js')).href);
  prespawnFor(process.argv.slice(2));
}
await import(pathToFileURL(entry).href);
