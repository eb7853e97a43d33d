#!/usr/bin/env node
// The compiled CLI lives in dist/ (built by `npm install` through the prepare script).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const entry = join(root, 'dist', 'src', 'cli.js');
if (!existsSync(entry)) {
  process.stderr.write('sqlboard: dist/ is missing; run `npm run build` (or `npm install`) in ' + root + '\n');
  process.exit(2);
}
await import(pathToFileURL(entry).href);
