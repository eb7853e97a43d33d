import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.js';

/** The command of data/spider/audit/README.md (and scripts/spider-audit-flags.sh), with a throw-away store. */
export function bundledAuditArgs(store: string): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'data', 'spider', 'predictions', 'manifest.json'), 'utf8')) as { systems: { name: string; file: string }[] };
  return [
    'audit',
    '--questions', join(ROOT, 'data', 'spider', 'dev.json'),
    '--db-root', join(ROOT, 'data', 'spider', 'database'),
    ...manifest.systems.flatMap((s) => ['--agent', `${s.name}=${join(ROOT, 'data', 'spider', 'predictions', s.file)}`]),
    '--store', store,
  ];
}

