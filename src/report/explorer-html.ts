import { createRequire } from 'node:module';
import { escapeXml } from './escape.js';
import type { ExplorerData } from './explorer-model.js';
import { EXPLORER_SCRIPT } from './explorer-script.js';

export const EXPLORER_CSS = `
section.explorer { margin-top: 34px; }
.ex-bar { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; margin: 8px 0; }
.ex-bar input[type=search] { flex: 1 1 220px; min-width: 0; padding: 5px 8px; font: inherit; border: 1px solid var(--line); border-radius: 4px; }
.ex-bar select { max-width: 100%; font: inherit; padding: 4px; }
.ex-count { color: var(--muted); }
.ex-keys { color: var(--muted); font-size: 12px; margin: 0 0 6px; }
.ex-keys kbd { border: 1px solid var(--line); border-radius: 3px; padding: 0 4px; background: var(--stripe); }
.ex-panes { display: grid; grid-template-columns: minmax(240px, 36%) minmax(0, 1fr); gap: 12px; height: 78vh; min-height: 420px; }
#ex-list { position: relative; overflow-y: auto; border: 1px solid var(--line); border-radius: 4px; }
#ex-spacer { position: relative; }
.ex-row { position: absolute; left: 0; right: 0; height: 48px; padding: 4px 8px; border-bottom: 1px solid var(--line); cursor: pointer; overflow: hidden; }
.ex-row.sel { background: var(--band); box-shadow: inset 3px 0 0 var(--accent); }
.ex-row-head { display: flex; gap: 8px; align-items: center; font-size: 12px; white-space: nowrap; }
.ex-id { font-weight: 600; } .ex-db, .ex-rank { color: var(--muted); overflow: hidden; text-overflow: ellipsis; }
.ex-flag { color: #b45309; font-weight: 600; }
.ex-strip { margin-left: auto; display: flex; gap: 1px; flex-shrink: 0; }
.ex-strip i { display: inline-block; width: 6px; height: 12px; }
.o-c { --o: #2f855a; } .o-w { --o: #c53030; } .o-e { --o: #7b341e; } .o-m { --o: #a0aec0; } .o-u { --o: #d69e2e; } .o-n { --o: #e2e8f0; }
.ex-strip i { background: var(--o); }
.ex-q { font-size: 13px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
#ex-detail { overflow-y: auto; border: 1px solid var(--line); border-radius: 4px; padding: 8px 12px; min-width: 0; }
#ex-detail h3 { margin: 4px 0; font-size: 17px; }
.ex-meta { display: flex; flex-wrap: wrap; gap: 8px; color: var(--muted); margin: 2px 0; }
.ex-question { font-size: 15px; margin: 6px 0; overflow-wrap: anywhere; }
.ex-evidence { color: var(--muted); overflow-wrap: anywhere; }
.ex-card { border: 1px solid var(--line); border-radius: 4px; padding: 6px 10px; margin: 8px 0; min-width: 0; }
.ex-card h4 { margin: 2px 0; font-size: 14px; overflow-wrap: anywhere; }
.ex-sys { border-left: 4px solid var(--o); }
.ex-gold { background: var(--stripe); }
.ex-card-head { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.ex-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 0 10px; }
pre.ex-sql { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 12px; background: #f8fafc; padding: 4px 6px; margin: 4px 0; max-height: 220px; overflow-y: auto; }
.ex-err { color: #9b2c2c; overflow-wrap: anywhere; margin: 4px 0; }
.ex-why { color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
.ex-muted { color: var(--muted); margin: 2px 0; font-size: 12px; }
.ex-badge { font-size: 11px; padding: 1px 6px; border-radius: 8px; color: #fff; background: var(--o, #718096); }
.ex-badge.b-flag { background: #b45309; } .ex-badge.b-amb { background: #6b46c1; } .ex-badge.b-ex { background: #4a5568; }
.b-c { --o: #2f855a; } .b-w { --o: #c53030; } .b-e { --o: #7b341e; } .b-m { --o: #a0aec0; } .b-u { --o: #d69e2e; } .b-n { --o: #a0aec0; }
.ex-tbl-wrap { overflow-x: auto; }
table.ex-tbl { border-collapse: collapse; font-size: 12px; font-variant-numeric: tabular-nums; }
table.ex-tbl th, table.ex-tbl td { border: 1px solid var(--line); padding: 1px 5px; white-space: nowrap; max-width: 260px; overflow: hidden; text-overflow: ellipsis; }
table.ex-tbl th { background: #eef1f5; }
@media (max-width: 800px) { .ex-panes { grid-template-columns: 1fr; height: auto; } #ex-list { height: 40vh; } #ex-detail { max-height: none; } .ex-grid { grid-template-columns: 1fr; } }
`;

/**
 * JSON for a `<script type="application/json">` block: `<` is written as \u003c (same value once
 * parsed), so no text in the data — a prediction holding `</script><script>` included — can end the block.
 */
export function embeddedJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * The Content-Security-Policy source that allows exactly the explorer's script, and nothing else.
 * node:crypto is loaded here, on the first --html page, rather than at import: every command loads
 * this module, and only --html pays for the hash (loading crypto cost ~8 ms of each start-up).
 */
export const explorerScriptSource = (): string => {
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return `'sha256-${createHash('sha256').update(EXPLORER_SCRIPT).digest('base64')}'`;
};

/** The explorer section: filters, the task list, the detail pane, the data and the script. */
export function renderExplorer(data: ExplorerData): string {
  const verdict = escapeXml(data.verdictLabel);
  return `<section class="explorer" id="explorer">
<h2>Tasks: ${data.tasks.length} × ${data.systems.length} systems (verdict: ${verdict})</h2>
<div class="ex-bar" role="search">
<input type="search" id="ex-search" placeholder="Search question, SQL, error, #id (press /)" aria-label="Search">
<select id="ex-sys" aria-label="System"><option value="">all systems</option></select>
<select id="ex-db" aria-label="Database"><option value="">all databases</option></select>
<select id="ex-diff" aria-label="Difficulty"><option value="">all difficulties</option></select>
<select id="ex-out" aria-label="Outcome"><option value="">any outcome</option><option value="c">correct</option><option value="w">wrong (incl. errors, missing)</option><option value="e">execution error</option><option value="m">missing prediction</option><option value="u">undecided</option><option value="none">no system correct</option></select>
<select id="ex-flag" aria-label="Gold flags"><option value="">flagged or not</option><option value="flag">gold flagged${data.kind === 'judge' ? ' (GoldX)' : ''}</option><option value="clean">gold not flagged</option><option value="ambq">ambiguous (AmbQ)</option></select>
<label><input type="checkbox" id="ex-dis"> systems disagree</label>
<select id="ex-sort" aria-label="Order"><option value="task">task order</option><option value="wrong">most systems wrong</option><option value="review">review queue</option></select>
<span class="ex-count" id="ex-count" aria-live="polite"></span>
</div>
<p class="ex-keys"><kbd>j</kbd>/<kbd>↓</kbd> next task, <kbd>k</kbd>/<kbd>↑</kbd> previous, <kbd>/</kbd> search, <kbd>Esc</kbd> leave the search box. With "all systems", an outcome filter keeps tasks where any system has it.</p>
<div class="ex-panes">
<div id="ex-list" role="listbox" aria-label="Tasks" tabindex="0"><div id="ex-spacer"></div></div>
<div id="ex-detail" aria-live="polite"></div>
</div>
<script type="application/json" id="sqlboard-explorer-data">${embeddedJson(data)}</script>
<script>${EXPLORER_SCRIPT}</script>
</section>`;
}
