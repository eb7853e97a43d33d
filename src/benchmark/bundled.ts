import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RepairName } from './repairs.js';

/** The Spider dev set and the licence-permitting published predictions shipped in data/spider. */
export interface BundledSystem {
  name: string;
  file: string;
  description: string;
  source: string;
  licence: string;
  /** Repairs this file needs to be scored at all (see the manifest); reported in the output. */
  repairs?: RepairName[];
}

function findDataDir(): string {
  // src/benchmark (tsx) and dist/src/benchmark (compiled) both sit below the package root.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'data', 'spider');
    if (existsSync(join(candidate, 'dev.json'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('bundled data/spider not found next to the package');
}

export function bundledSpider(): { questions: string; dbRoot: string; systems: BundledSystem[]; flags: string } {
  const root = findDataDir();
  const manifestFile = join(root, 'predictions', 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { systems: BundledSystem[] };
  return {
    questions: join(root, 'dev.json'),
    dbRoot: join(root, 'database'),
    // Gold-error flags from `sqlboard audit` over the bundled systems (see data/spider/audit/README.md).
    flags: join(root, 'audit', 'flags.csv'),
    systems: manifest.systems.map((s) => ({ ...s, file: resolve(root, 'predictions', s.file) })),
  };
}
