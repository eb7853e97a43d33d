import { join } from 'node:path';
import { audit, type AuditOptions } from '../api/audit.js';
import type { AUDIT_OPTIONS } from '../api/audit-options.js';
import type { ParsedOptions } from '../api/option-table.js';
import { ExitCode, raiseExitCode } from '../exit-codes.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { checkOutputs } from './check-outputs.js';
import { parseSystemSpecs } from '../benchmark/system-specs.js';
import { parseLlmAgentSpecs } from '../audit/agent-specs.js';
import { AUDIT_OUTPUT_FILES, agentSqlPath } from '../audit/outputs.js';
import { printNotes } from './outcome.js';
import { withRunHooks } from './run-hooks.js';
import { apiOptions } from './api-options.js';

/** The library's options (AUDIT_OPTIONS) and the CLI's own output formats. */
export type AuditArgs = ReportOptions & AuditOptions & ParsedOptions<typeof AUDIT_OPTIONS>;

/** `sqlboard audit`'s handler (its flags: audit.ts). */
export async function runAudit(argv: AuditArgs): Promise<void> {
  const specs = parseSystemSpecs(argv.agent, 'agent');
  checkOutputs(argv, {
    inputs: {
      '--questions': argv.questions,
      '--db-root': argv.dbRoot,
      '--agent': specs.map(([, file]) => file),
      '--labels': argv.labels,
      '--compare-flags': argv.compareFlags,
      '--price-file': argv.priceFile,
      '--replay': argv.replay,
      '--store': argv.store,
    },
    outputs: {
      '--out': argv.out === undefined ? undefined : AUDIT_OUTPUT_FILES.map((f) => join(argv.out!, f)),
      '--save-agent-sql': argv.saveAgentSql === undefined ? undefined : parseLlmAgentSpecs(argv.llmAgent, specs.map(([name]) => name)).map((a) => agentSqlPath(argv.saveAgentSql!, a.name)),
      '--store': argv.store,
    },
  });
  const result = await withRunHooks(argv.store, (hooks) => audit({ ...apiOptions(argv), explorer: argv.html !== undefined, ...hooks }));
  printNotes(result.notes);
  if (result.waiting !== undefined) {
    raiseExitCode(ExitCode.Partial);
    return;
  }
  emitReport(result.report, result.json, argv);
}
