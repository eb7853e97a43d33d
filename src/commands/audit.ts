import type { Argv, CommandModule } from 'yargs';
import { AUDIT_OPTIONS } from '../api/audit-options.js';
import { addOptionTable } from './option-table.js';
import { addReportOptions } from './report-options.js';
import type { AuditArgs } from './audit-run.js';
import { VERBS } from './verbs.js';
import { withExamples } from './examples.js';

/** `sqlboard audit`'s flags and help; what it does (and all it loads) is in audit-run.ts, loaded only to run it. */
export const auditCommand: CommandModule<object, AuditArgs> = {
  ...VERBS.audit,
  builder: (y: Argv) => withExamples(addReportOptions(addOptionTable(y, AUDIT_OPTIONS)), 'audit') as unknown as Argv<AuditArgs>,
  handler: async (argv) => (await import('./audit-run.js')).runAudit(argv),
};
