/**
 * The explorer's browser code (plain ES2020, no library), inlined into the page and allowed by its
 * hash in the Content-Security-Policy. Every piece of data reaches the page through textContent or
 * a number, never as markup, so hostile SQL or result cells cannot inject anything. Rows of the task
 * list are rendered virtually (only those in view), so 1,534 tasks × 23 systems stay fast.
 * Reads the JSON in #sqlboard-explorer-data (ExplorerData, explorer-model.ts).
 */
export const EXPLORER_SCRIPT = String.raw`(() => {
'use strict';
const D = JSON.parse(document.getElementById('sqlboard-explorer-data').textContent);
const S = D.systems, T = D.tasks, P = D.previews;
const ROW = 48;
const $ = (id) => document.getElementById(id);
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
const OUTCOME_WORD = { c: 'correct', w: 'wrong', e: 'error', m: 'missing', u: 'undecided', n: 'not judged' };
function outcome(it) {
  if (!it) return 'n';
  if (it.m) return 'm';
  if (it.e !== undefined) return 'e';
  if (it.v === null) return 'u';
  return it.v ? 'c' : 'w';
}
const OUT = T.map((t) => t.s.map(outcome));
const NWRONG = OUT.map((o) => o.filter((x) => x === 'w' || x === 'e' || x === 'm').length);
const DISAGREE = T.map((t) => {
  let c = 0, w = 0;
  for (const it of t.s) if (it && it.v !== null) { if (it.v) c++; else w++; }
  return c > 0 && w > 0;
});
const FLAGGED = T.map((t) => t.fl === true || t.s.some((it) => it && it.gx));
const AMBQ = T.map((t) => t.s.some((it) => it && it.aq));
let hayTask = null, haySys = null;
function buildHay() {
  hayTask = T.map((t) => ('#' + t.id + '\n' + t.db + '\n' + t.q + '\n' + (t.ev || '') + '\n' + t.gold).toLowerCase());
  haySys = T.map((t) => t.s.map((it) => ((it && it.sql) || '').toLowerCase() + '\n' + ((it && it.e) || '').toLowerCase()));
}

const search = $('ex-search'), fSys = $('ex-sys'), fDb = $('ex-db'), fDiff = $('ex-diff'), fOut = $('ex-out');
const fFlag = $('ex-flag'), fDis = $('ex-dis'), fSort = $('ex-sort');
const list = $('ex-list'), spacer = $('ex-spacer'), detail = $('ex-detail'), count = $('ex-count');
function option(sel, value, text) { const o = el('option', null, text); o.value = value; sel.appendChild(o); }
S.forEach((s, i) => option(fSys, String(i), s));
[...new Set(T.map((t) => t.db))].sort().forEach((d) => option(fDb, d, d));
const diffs = [...new Set(T.map((t) => t.d).filter((d) => d !== undefined))];
diffs.forEach((d) => option(fDiff, d, d));
if (diffs.length === 0) fDiff.hidden = true;
if (!FLAGGED.some(Boolean) && !AMBQ.some(Boolean) && !T.some((t) => t.fl !== undefined)) fFlag.hidden = true;
if (!AMBQ.some(Boolean)) fFlag.querySelector('option[value="ambq"]').remove();
if (!T.some((t) => t.rk !== undefined)) fSort.querySelector('option[value="review"]').remove();
else if (D.order === 'review') fSort.value = 'review';
if (!OUT.some((o) => o.includes('u'))) fOut.querySelector('option[value="u"]').remove();

let view = [];
let sel = -1;

function matchOutcome(ti, sys, want) {
  if (!want) return true;
  const o = OUT[ti];
  const is = (x) => want === 'w' ? (x === 'w' || x === 'e' || x === 'm') : x === want;
  if (want === 'none') return !o.includes('c');
  return sys >= 0 ? is(o[sys]) : o.some(is);
}

function apply() {
  const sys = fSys.value === '' ? -1 : Number(fSys.value);
  const db = fDb.value, diff = fDiff.value, want = fOut.value, flag = fFlag.value, dis = fDis.checked;
  const q = search.value.trim().toLowerCase();
  if (q && !hayTask) buildHay();
  const keep = sel >= 0 ? view[sel] : undefined;
  view = [];
  for (let ti = 0; ti < T.length; ti++) {
    const t = T[ti];
    if (db && t.db !== db) continue;
    if (diff && t.d !== diff) continue;
    if (dis && !DISAGREE[ti]) continue;
    if (flag === 'flag' && !FLAGGED[ti]) continue;
    if (flag === 'clean' && FLAGGED[ti]) continue;
    if (flag === 'ambq' && !AMBQ[ti]) continue;
    if (!matchOutcome(ti, sys, want)) continue;
    if (q) {
      const hs = haySys[ti];
      const inSql = sys >= 0 ? hs[sys].includes(q) : hs.some((h) => h.includes(q));
      if (!hayTask[ti].includes(q) && !inSql) continue;
    }
    view.push(ti);
  }
  const by = fSort.value;
  if (by === 'review') view.sort((a, b) => (T[a].rk ?? Infinity) - (T[b].rk ?? Infinity) || a - b);
  else if (by === 'wrong') view.sort((a, b) => NWRONG[b] - NWRONG[a] || a - b);
  count.textContent = view.length + ' of ' + T.length + ' tasks';
  spacer.style.height = view.length * ROW + 'px';
  const at = keep === undefined ? -1 : view.indexOf(keep);
  sel = view.length === 0 ? -1 : Math.max(0, at);
  // The selected task stays selected when the filters keep it, and in view.
  if (at < 0) list.scrollTop = 0;
  else scrollToSelected();
  drawRows(true);
  showDetail();
}
function scrollToSelected() {
  const top = sel * ROW;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + ROW > list.scrollTop + list.clientHeight) list.scrollTop = top + ROW - list.clientHeight;
}

let drawn = '';
function drawRows(force) {
  const top = list.scrollTop, h = list.clientHeight || 600;
  const from = Math.max(0, Math.floor(top / ROW) - 8), to = Math.min(view.length, Math.ceil((top + h) / ROW) + 8);
  const key = from + ':' + to + ':' + sel;
  if (!force && key === drawn) return;
  drawn = key;
  const frag = document.createDocumentFragment();
  for (let i = from; i < to; i++) frag.appendChild(rowEl(i));
  spacer.replaceChildren(frag);
}
function rowEl(i) {
  const ti = view[i], t = T[ti];
  const r = el('div', 'ex-row' + (i === sel ? ' sel' : ''));
  r.setAttribute('role', 'option');
  r.setAttribute('aria-selected', i === sel ? 'true' : 'false');
  r.dataset.i = String(i);
  r.dataset.task = t.id;
  r.style.top = i * ROW + 'px';
  const head = el('div', 'ex-row-head');
  head.appendChild(el('span', 'ex-id', '#' + t.id));
  head.appendChild(el('span', 'ex-db', t.db + (t.d ? ' · ' + t.d : '')));
  if (t.rk !== undefined && (D.kind === 'audit' || fSort.value === 'review')) head.appendChild(el('span', 'ex-rank', 'review #' + t.rk));
  if (FLAGGED[ti]) head.appendChild(el('span', 'ex-flag', D.kind === 'judge' ? 'GoldX' : 'flagged'));
  const strip = el('span', 'ex-strip');
  OUT[ti].forEach((o, si) => { const b = el('i', 'o-' + o); b.title = S[si] + ': ' + OUTCOME_WORD[o]; strip.appendChild(b); });
  head.appendChild(strip);
  r.appendChild(head);
  r.appendChild(el('div', 'ex-q', t.q || t.gold));
  return r;
}
let raf = 0;
list.addEventListener('scroll', () => { if (!raf) raf = requestAnimationFrame(() => { raf = 0; drawRows(false); }); });
list.addEventListener('click', (ev) => {
  const r = ev.target.closest('.ex-row');
  if (r) select(Number(r.dataset.i));
});

function previewEl(pi) {
  if (pi === undefined) return el('p', 'ex-muted', 'no result preview');
  const p = P[pi];
  const box = el('div', 'ex-prev');
  if (p.status !== 'ok') { box.appendChild(el('p', 'ex-err', (p.status === 'timeout' ? 'timed out: ' : 'error: ') + (p.error || p.status))); return box; }
  box.appendChild(el('p', 'ex-muted', p.total + (p.total === 1 ? ' row' : ' rows') + (p.total > p.rows.length ? ', first ' + p.rows.length + ' shown' : '') + (p.moreColumns ? ', ' + p.moreColumns + ' more columns' : '')));
  if (p.columns.length === 0) return box;
  const tb = el('table', 'ex-tbl'), hr = el('tr');
  p.columns.forEach((c) => hr.appendChild(el('th', null, c)));
  const th = el('thead'); th.appendChild(hr); tb.appendChild(th);
  const body = el('tbody');
  p.rows.forEach((row) => { const tr = el('tr'); row.forEach((c) => tr.appendChild(el('td', null, c))); body.appendChild(tr); });
  tb.appendChild(body);
  const wrap = el('div', 'ex-tbl-wrap'); wrap.appendChild(tb); box.appendChild(wrap);
  return box;
}
function badge(text, cls) { return el('span', 'ex-badge ' + cls, text); }
function showDetail() {
  detail.replaceChildren();
  if (sel < 0) { detail.appendChild(el('p', 'ex-muted', 'No task matches the filters.')); return; }
  const ti = view[sel], t = T[ti];
  const h = el('h3', null, 'Task #' + t.id);
  detail.appendChild(h);
  const meta = el('p', 'ex-meta');
  meta.appendChild(el('span', null, t.db + (t.d ? ' · ' + t.d : '')));
  if (t.fl === true) meta.appendChild(badge('gold flagged', 'b-flag'));
  if (t.rk !== undefined) meta.appendChild(el('span', null, 'review rank ' + t.rk + ', score ' + t.rs.toFixed(3) + (t.pw !== undefined ? ', P(gold wrong) ' + t.pw.toFixed(3) : '')));
  detail.appendChild(meta);
  detail.appendChild(el('p', 'ex-question', t.q));
  if (t.ev) detail.appendChild(el('p', 'ex-evidence', 'Evidence: ' + t.ev));
  const gold = el('div', 'ex-card ex-gold');
  gold.appendChild(el('h4', null, 'Gold SQL'));
  gold.appendChild(el('pre', 'ex-sql', t.gold));
  if (t.ge) gold.appendChild(el('p', 'ex-err', 'gold error: ' + t.ge));
  gold.appendChild(previewEl(t.gp));
  if (t.fix) { gold.appendChild(el('h4', null, 'Proposed correction')); gold.appendChild(el('pre', 'ex-sql', t.fix)); }
  detail.appendChild(gold);
  const sys = fSys.value === '' ? -1 : Number(fSys.value);
  // The chosen system first, then the ones that got it wrong (what error analysis looks at), then the rest.
  const rankOf = (si) => (si === sys ? 0 : OUT[ti][si] === 'c' ? 2 : 1);
  const order = S.map((_, i) => i).sort((a, b) => rankOf(a) - rankOf(b) || a - b);
  const grid = el('div', 'ex-grid');
  for (const si of order) {
    const it = t.s[si], o = OUT[ti][si];
    const card = el('div', 'ex-card ex-sys o-' + o);
    card.dataset.system = S[si];
    const top = el('div', 'ex-card-head');
    top.appendChild(el('h4', null, S[si]));
    top.appendChild(badge(OUTCOME_WORD[o], 'b-' + o));
    if (it && it.gx) top.appendChild(badge('GoldX', 'b-flag'));
    if (it && it.aq) top.appendChild(badge('AmbQ', 'b-amb'));
    if (it && it.ex !== undefined) top.appendChild(badge('EX ' + (it.ex ? '1' : '0'), 'b-ex'));
    if (it && it.mx) for (const [k, v] of Object.entries(it.mx)) top.appendChild(badge(k + ' ' + (Number.isInteger(v) ? String(v) : v.toFixed(3)), 'b-ex'));
    card.appendChild(top);
    if (it) {
      if (it.rt) card.appendChild(el('p', 'ex-muted', 'route: ' + it.rt));
      if (it.m) card.appendChild(el('p', 'ex-muted', 'no prediction'));
      else card.appendChild(el('pre', 'ex-sql', it.sql));
      if (it.e !== undefined) card.appendChild(el('p', 'ex-err', it.e));
      else if (!it.m) card.appendChild(previewEl(it.p));
      if (it.why) card.appendChild(el('p', 'ex-why', it.why));
    }
    grid.appendChild(card);
  }
  detail.appendChild(grid);
  detail.scrollTop = 0;
}
function select(i) {
  if (view.length === 0) return;
  sel = Math.max(0, Math.min(view.length - 1, i));
  scrollToSelected();
  drawRows(true);
  showDetail();
}
document.addEventListener('keydown', (ev) => {
  const t = ev.target;
  const typing = t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA');
  if (ev.key === 'Escape' && typing) { t.blur(); return; }
  if (typing || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === '/') { ev.preventDefault(); search.focus(); search.select(); }
  else if (ev.key === 'j' || ev.key === 'ArrowDown') { ev.preventDefault(); select(sel + 1); }
  else if (ev.key === 'k' || ev.key === 'ArrowUp') { ev.preventDefault(); select(sel - 1); }
});
let typingTimer = 0;
search.addEventListener('input', () => { clearTimeout(typingTimer); typingTimer = setTimeout(apply, 120); });
[fSys, fDb, fDiff, fOut, fFlag, fSort].forEach((f) => f.addEventListener('change', apply));
fDis.addEventListener('change', apply);
apply();
document.body.dataset.explorerReady = String(Math.round(performance.now()));
})();`;
