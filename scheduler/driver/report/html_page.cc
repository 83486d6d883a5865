// The HTML report's markup, stylesheet and script (see html_page.h). The script is plain ES2017
// for any current browser; it never uses innerHTML, and only builds elements whose text comes
// from the data through textContent or attributes that are not interpreted (title, data-*).
#include "report/html_page.h"

namespace ctrlsched::driver {
namespace {

constexpr std::string_view kBefore = R"HTML(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ctrlsched report</title>
<style>
:root { --fg:#1d2329; --muted:#5d6873; --line:#d8dee4; --bg:#fff; --soft:#f5f7f9; --fail:#c62828; --warn:#b26a00;
        --ok:#2e7d32; --pat:#6a1b9a; --patbg:#f3e5f5; --dead:#b71c1c; --deadbg:#ffebee; --held:#e65100; --heldbg:#fff3e0; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); margin: 0; }
main { max-width: 1400px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 22px; margin: 8px 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; } h3 { font-size: 15px; margin: 16px 0 6px; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: 8px; overflow-x: auto; margin: 4px 0; white-space: pre-wrap; word-break: break-word; }
table.facts { border-collapse: collapse; margin: 6px 0; }
table.facts td, table.facts th { text-align: left; padding: 2px 12px 2px 0; vertical-align: top; }
table.facts th { color: var(--muted); font-weight: normal; }
.verdict { display: inline-block; padding: 0 6px; border-radius: 3px; font-size: 12px; font-weight: 600; }
.verdict.fail, .verdict.confirmed { background: #ffebee; color: var(--fail); }
.verdict.pass { background: #e8f5e9; color: var(--ok); }
.verdict.refuted, .verdict.unrealized, .verdict.inconclusive, .verdict.unforced, .verdict.symptom { background: var(--soft); color: var(--muted); }
.group { border: 1px solid var(--line); border-radius: 6px; padding: 4px 16px 12px; margin: 14px 0; }
.group > h3 { color: var(--fail); }
.cmd { display: flex; gap: 8px; align-items: center; margin: 3px 0; }
.cmd code { flex: 1; background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: 4px 8px; white-space: pre-wrap; word-break: break-all; }
.cmd .label { width: 4.5em; color: var(--muted); }
button { font: inherit; font-size: 12px; padding: 2px 8px; border: 1px solid var(--line); background: var(--soft); border-radius: 4px; cursor: pointer; }
button:hover { background: #e9edf1; }
details > summary { cursor: pointer; margin: 6px 0; }
.legend { display: flex; flex-wrap: wrap; gap: 14px; color: var(--muted); font-size: 12px; margin: 6px 0; }
.legend span::before { content: ""; display: inline-block; width: 12px; height: 12px; vertical-align: -2px; margin-right: 4px; border: 1px solid var(--line); }
.legend .l-switch::before { border-top: 2px solid #1565c0; } .legend .l-preempt::before { border-top: 3px solid var(--warn); }
.legend .l-blocked::before { background: repeating-linear-gradient(45deg, #eceff1, #eceff1 3px, #cfd8dc 3px, #cfd8dc 6px); }
.legend .l-pattern::before { background: var(--patbg); border-color: var(--pat); } .legend .l-failure::before { background: #ffebee; border-color: var(--fail); }
.legend .l-dead::before { background: var(--deadbg); border-color: var(--dead); } .legend .l-held::before { background: var(--heldbg); border-color: var(--held); }
.jump { font-size: 12.5px; margin: 4px 0 8px; } .jump a { margin-right: 10px; }
.timeline { border: 1px solid var(--line); border-radius: 4px; overflow: auto; max-height: 75vh; }
.trow { display: grid; }
.trow > div { padding: 1px 6px; border-right: 1px solid #eef1f4; min-height: 20px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
.thead { position: sticky; top: 0; z-index: 2; background: #eef2f6; font-weight: 600; border-bottom: 1px solid var(--line); }
.stepno { color: var(--muted); text-align: right; font-family: ui-monospace, monospace; font-size: 11.5px; }
.cell { font-size: 12.5px; }
.cell .what { font-weight: 600; margin-right: 6px; } .cell .where { font-family: ui-monospace, monospace; font-size: 12px; } .cell .fn { color: var(--muted); margin-left: 6px; }
.trow.switch > div { border-top: 2px solid #1565c0; }
.trow.preempt > div { border-top: 3px solid var(--warn); }
.mark { font-size: 11px; font-weight: 600; margin-right: 6px; }
.mark.preempt { color: var(--warn); } .mark.switch { color: #1565c0; }
.cell.blocked { background: repeating-linear-gradient(45deg, #eceff1, #eceff1 3px, #cfd8dc 3px, #cfd8dc 6px); }
.cell.blocks { background: #eceff1; }
.cell.hl-pattern { background: var(--patbg); outline: 2px solid var(--pat); outline-offset: -2px; }
.cell.hl-pattern-site { background: var(--patbg); }
.cell.hl-failure { background: #ffebee; outline: 2px solid var(--fail); outline-offset: -2px; }
.cell.hl-deadlock { background: var(--deadbg); outline: 2px solid var(--dead); outline-offset: -2px; }
.cell.hl-held { background: var(--heldbg); outline: 2px solid var(--held); outline-offset: -2px; }
.badge { display: inline-block; font-size: 11px; font-weight: 700; padding: 0 5px; border-radius: 3px; margin-right: 6px; color: #fff; }
.badge.pattern { background: var(--pat); } .badge.failure { background: var(--fail); } .badge.deadlock { background: var(--dead); } .badge.held { background: var(--held); }
.fold > div, .gap > div { background: var(--soft); color: var(--muted); font-style: italic; }
.fold button, .gap button { font-style: normal; margin-left: 6px; }
table.patterns { border-collapse: collapse; width: 100%; margin: 6px 0; }
table.patterns th, table.patterns td { border-bottom: 1px solid var(--line); text-align: left; padding: 4px 8px; vertical-align: top; font-size: 13px; }
table.patterns tr.chosen { background: var(--patbg); }
.muted { color: var(--muted); } .note { color: var(--muted); font-style: italic; }
</style>
</head>
<body>
<main id="ctrlsched-report"><noscript>This report is drawn by its embedded script; enable JavaScript to read it.</noscript></main>
<div id="ctrlsched-status" hidden></div>
<script type="application/json" id="ctrlsched-data">)HTML";

constexpr std::string_view kAfter = R"HTML(</script>
<script>
(function () {
'use strict';
var status = document.getElementById('ctrlsched-status');
var errors = [];
window.addEventListener('error', function (e) { errors.push(String(e.message)); status.setAttribute('data-errors', String(errors.length)); });
var started = performance.now();
var ROW_BUDGET = 1500;   // rows drawn per timeline before the user asks for more
var FOLD_MIN = 12;       // a stretch of one thread longer than this folds into one row
var FOLD_KEEP = 2;       // steps kept visible at each end of a fold
var EXPAND_CHUNK = 500;  // rows drawn per click on a fold or a gap

function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
function add(parent, child) { parent.appendChild(child); return child; }
function baseName(path) { var i = path.lastIndexOf('/'); return i < 0 ? path : path.slice(i + 1); }
function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }
function percent(x) { return (Math.round(x * 1000) / 10) + '%'; }
function copyButton(text) {
  var b = el('button', null, 'copy');
  b.addEventListener('click', function () {
    function done() { b.textContent = 'copied'; setTimeout(function () { b.textContent = 'copy'; }, 1200); }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, function () { b.textContent = 'select and copy'; });
    } else { b.textContent = 'select and copy'; }
  });
  return b;
}
function command(parent, label, text) {
  var row = add(parent, el('div', 'cmd'));
  add(row, el('span', 'label', label));
  add(row, el('code', null, text));
  add(row, copyButton(text));
}
function facts(parent, rows) {
  var t = add(parent, el('table', 'facts'));
  rows.forEach(function (r) {
    if (r[1] === undefined || r[1] === null || r[1] === '') return;
    var tr = add(t, el('tr'));
    add(tr, el('th', null, r[0]));
    add(tr, el('td', null, r[1]));
  });
  return t;
}
function lines(parent, title, list) {
  if (!list || !list.length) return;
  add(parent, el('div', 'muted', title));
  add(parent, el('pre', null, list.join('\n')));
}

var data = JSON.parse(document.getElementById('ctrlsched-data').textContent);
var root = document.getElementById('ctrlsched-report');
var s = data.summary;
var target = [s.target].concat(s.args || []).join(' ');
document.title = 'ctrlsched: ' + baseName(s.target) + ' \u2014 ' + (s.failures ? plural(s.failures, 'failing seed') : 'no failure');

// ---- summary ----
add(root, el('h1', null, 'ctrlsched report'));
add(root, el('div', 'mono', target));
var verdict = add(root, el('p'));
add(verdict, el('span', 'verdict ' + (s.failures ? 'fail' : 'pass'), s.failures ? 'FAIL' : 'PASS'));
verdict.appendChild(document.createTextNode(' ' + s.failures + ' of ' + plural(s.seeds, 'seed') + ' failed' +
  (s.seeds ? ' (' + percent(s.failures / s.seeds) + ')' : '') + (data.groups.length ? ', in ' + plural(data.groups.length, 'group') : '') +
  (s.interrupted ? ' \u2014 interrupted: only the seeds that finished are reported' : '') +
  (s.stopped_early ? ' \u2014 stopped early' : '')));
var strategy = s.strategy + (s.depth !== null && s.depth !== undefined ? ' d=' + s.depth : '') + (s.pct_steps ? ' k=' + s.pct_steps : '') +
  (s.preemption_bound !== null && s.preemption_bound !== undefined ? ' preemption bound ' + s.preemption_bound : '');
var outcomes = Object.keys(data.outcomes).filter(function (k) { return data.outcomes[k]; })
  .map(function (k) { return k + ' ' + data.outcomes[k]; }).join(', ');
facts(root, [['seeds', s.seed_start + ' \u2026 ' + (s.seed_start + s.seeds - 1) + (s.seeds_requested !== s.seeds ? ' (' + s.seeds_requested + ' requested)' : '')],
  ['strategy', strategy], ['outcomes', outcomes], ['time', (Math.round(s.elapsed_s * 100) / 100) + ' s']]);

// ---- failure groups ----
var chosen = null;  // the highlighted pattern, from localization.falcon.patterns
if (data.localization && data.localization.falcon) {
  for (var gi = 0; gi < data.groups.length && !chosen; ++gi) {
    var tl = data.groups[gi].timeline;
    if (tl && tl.pattern) chosen = { index: tl.pattern.index, status: tl.pattern.status, pattern: data.localization.falcon.patterns[tl.pattern.index] };
  }
}
if (data.groups.length) add(root, el('h2', null, 'Failure groups'));
data.groups.forEach(function (g, index) {
  var box = add(root, el('section', 'group'));
  box.setAttribute('data-group', String(index));
  add(box, el('h3', null, (index + 1) + '. ' + (g.message || g.kind)));
  var where = g.file ? baseName(g.file) + ':' + g.line + (g.function ? ' in ' + g.function : '') : null;
  facts(box, [['kind', g.kind], ['seeds', g.count + (s.seeds ? ' (' + percent(g.count / s.seeds) + ')' : '') + ', first seed ' + g.first_seed],
    ['where', where], ['handle', g.handle]]);
  command(box, 'replay', g.replay);
  command(box, 'shrink', g.shrink);
  lines(box, g.kind === 'deadlock' ? 'blocked threads' : 'details', g.details);
  lines(box, 'stack', g.stack);
  if (g.output_tail) lines(box, 'end of the test\'s output', [g.output_tail]);
  var det = add(box, el('details', 'timeline-box'));
  add(det, el('summary', null, 'Interleaving of seed ' + g.first_seed +
    (g.timeline ? ' \u2014 ' + plural(g.timeline.steps.length / 4, 'step') + ', ' + plural(g.timeline.threads, 'thread') : '')));
  if (!g.timeline) { add(det, el('p', 'note', g.timeline_note)); return; }
  var drawn = false;
  function draw() { if (!drawn) { drawn = true; drawTimeline(det, g, index); } }
  det.addEventListener('toggle', function () { if (det.open) draw(); });
  if (index === 0) { det.open = true; draw(); }
});

// ---- timeline ----
function drawTimeline(parent, group, groupIndex) {
  var t = group.timeline;
  var n = t.steps.length / 4;
  var thread = new Array(n), place = new Array(n), what = new Array(n), flags = new Array(n);
  for (var i = 0; i < n; ++i) { thread[i] = t.steps[4 * i]; place[i] = t.steps[4 * i + 1]; what[i] = t.steps[4 * i + 2]; flags[i] = t.steps[4 * i + 3]; }
  var lanes = t.threads;
  // Blocked periods: from a thread's block step until its next step (or the end of the run).
  var blockedFrom = [], blockedTo = [];
  for (var l = 0; l < lanes; ++l) { blockedFrom.push([]); blockedTo.push([]); }
  var open = new Array(lanes).fill(-1);
  for (i = 0; i < n; ++i) {
    var th = thread[i];
    if (open[th] >= 0) { blockedFrom[th].push(open[th] + 1); blockedTo[th].push(i); open[th] = -1; }
    if (flags[i] & 4) open[th] = i;
  }
  for (l = 0; l < lanes; ++l) if (open[l] >= 0) { blockedFrom[l].push(open[l] + 1); blockedTo[l].push(n); }
  function blockedAt(lane, step) {  // binary search in the lane's sorted periods [from, to)
    var a = blockedFrom[lane], b = blockedTo[lane], lo = 0, hi = a.length - 1;
    while (lo <= hi) { var mid = (lo + hi) >> 1; if (a[mid] > step) hi = mid - 1; else if (b[mid] <= step) lo = mid + 1; else return true; }
    return false;
  }
  // Highlights: step -> {cls, badge, text}
  var marks = new Map();
  function mark(step, cls, badge, text) { if (step !== null && step !== undefined && step < n) marks.set(step, { cls: cls, badge: badge, text: text }); }
  var jumps = [];
  if (t.failure) { mark(t.failure.step, 'hl-failure', 'failure', group.kind + ': the last step of T' + t.failure.thread); jumps.push([t.failure.step, 'failure point']); }
  t.deadlock.forEach(function (d) {
    var held = d.holder !== null ? ' held by T' + d.holder : '';
    mark(d.step, 'hl-deadlock', 'deadlock', 'T' + d.thread + ' waits for ' + d.waits_for + held + ', to the end of the run');
    jumps.push([d.step, 'T' + d.thread + ' blocks']);
    if (d.held_since !== null) {
      mark(d.held_since, 'hl-held', 'holds', 'T' + d.holder + ' takes the ' + d.waits_for + ' that T' + d.thread + ' will wait for');
      jumps.push([d.held_since, 'T' + d.holder + ' takes it']);
    }
  });
  var patternNote = null;
  if (t.pattern) {
    var p = data.localization.falcon.patterns[t.pattern.index];
    if (t.pattern.complete) {
      t.pattern.steps.forEach(function (step, k) {
        var a = p.accesses[k];
        var label = a.access + a.role;
        mark(step, 'hl-pattern', label, 'access ' + (k + 1) + ' of ' + p.accesses.length + ' of pattern ' + p.kind + ' on ' + p.location + ' (rank ' + p.rank + ', ' + t.pattern.status + ')');
        jumps.push([step, 'pattern ' + label + ' (' + (k + 1) + '/' + p.accesses.length + ')']);
      });
    } else {
      t.pattern.steps.forEach(function (step) { if (!marks.has(step)) mark(step, 'hl-pattern-site', null, 'a site of pattern ' + p.kind); });
      patternNote = 'This run holds no complete occurrence of the ' + (t.pattern.status === 'confirmed' ? 'confirmed' : 'top-ranked') +
        ' pattern ' + p.kind + '; the steps at its sites are tinted.';
    }
  }
  jumps.sort(function (a, b) { return a[0] - b[0]; });

  // Display items: single steps, folds (a long stretch of one thread), gaps (beyond the budget).
  var important = function (i) { return i === 0 || i === n - 1 || flags[i] !== 0 || thread[i] !== thread[i - 1] || marks.has(i); };
  var items = [];
  var run = -1;
  function flush(end) {  // plain steps [run, end)
    if (run < 0) return;
    if (end - run > FOLD_MIN) {
      for (var k = run; k < run + FOLD_KEEP; ++k) items.push(k);
      items.push({ fold: true, from: run + FOLD_KEEP, to: end - FOLD_KEEP });
      for (k = end - FOLD_KEEP; k < end; ++k) items.push(k);
    } else { for (k = run; k < end; ++k) items.push(k); }
    run = -1;
  }
  for (i = 0; i < n; ++i) {
    if (important(i)) { flush(i); items.push(i); } else if (run < 0) run = i;
  }
  flush(n);
  // Which items to draw first: all if they fit, else the start, the end and around each mark.
  var show = new Uint8Array(items.length);
  if (items.length <= ROW_BUDGET) { show.fill(1); } else {
    var head = Math.floor(ROW_BUDGET / 3);
    for (i = 0; i < head; ++i) show[i] = 1;
    for (i = items.length - head; i < items.length; ++i) show[i] = 1;
    var marked = 0;
    for (i = 0; i < items.length && marked < 200; ++i) {
      if (typeof items[i] === 'number' && marks.has(items[i])) {
        ++marked;
        for (var j = Math.max(0, i - 3); j <= Math.min(items.length - 1, i + 3); ++j) show[j] = 1;
      }
    }
  }

  add(parent, el('div', 'legend')).append(el('span', 'l-switch', 'context switch'), el('span', 'l-preempt', 'preemption'),
    el('span', 'l-blocked', 'blocked'), el('span', 'l-pattern', 'pattern access'), el('span', 'l-failure', 'failure point'),
    el('span', 'l-dead', 'deadlocked thread'), el('span', 'l-held', 'holds the awaited lock'));
  if (t.truncated) add(parent, el('p', 'note', 'The run is longer than the report keeps: the interleaving is cut short.'));
  if (patternNote) add(parent, el('p', 'note', patternNote));
  var jumpBox = jumps.length ? add(parent, el('div', 'jump')) : null;
  var box = add(parent, el('div', 'timeline'));
  box.setAttribute('data-group', String(groupIndex));
  // Every row is its own grid with the same columns and the same width, so lanes line up
  // whatever a cell holds (cells cut long text with an ellipsis; the tooltip has it whole).
  var columns = '5.5em repeat(' + lanes + ', minmax(20em, 1fr))';
  var rowWidth = (5.5 + 20 * lanes) + 'em';
  var headRow = add(box, el('div', 'trow thead'));
  headRow.style.gridTemplateColumns = columns;
  headRow.style.minWidth = rowWidth;
  add(headRow, el('div', 'stepno', 'step'));
  for (l = 0; l < lanes; ++l) { var h = add(headRow, el('div', 'lane-head', 'T' + l)); h.setAttribute('data-thread', String(l)); }
  var rowsDrawn = 0;

  function stepRow(i) {
    var row = el('div', 'trow');
    row.style.gridTemplateColumns = columns;
    row.style.minWidth = rowWidth;
    row.id = 'g' + groupIndex + '-s' + i;
    row.setAttribute('data-step', String(i));
    var prev = i > 0 ? thread[i - 1] : thread[i];
    if (flags[i] & 2) row.classList.add('preempt'); else if (flags[i] & 1) row.classList.add('switch');
    var no = add(row, el('div', 'stepno', i + 1));
    if (flags[i] & 2) { no.title = 'T' + prev + ' was preempted: it could have continued'; }
    else if (flags[i] & 1) { no.title = 'context switch from T' + prev; }
    for (var lane = 0; lane < lanes; ++lane) {
      var c = add(row, el('div', 'cell'));
      c.setAttribute('data-thread', String(lane));
      if (lane !== thread[i]) { if (blockedAt(lane, i)) c.classList.add('blocked'); continue; }
      var m = marks.get(i);
      if (m) { c.classList.add(m.cls); if (m.badge) add(c, el('span', 'badge ' + m.cls.replace('hl-', '').replace('-site', ''), m.badge)); }
      if (flags[i] & 4) c.classList.add('blocks');
      var pl = t.places[place[i]];
      // The switch mark first: a long cell is cut at its end.
      if (flags[i] & 2) add(c, el('span', 'mark preempt', '\u26a1 preempts T' + prev));
      else if (flags[i] & 1 && i > 0) add(c, el('span', 'mark switch', '\u21b3 from T' + prev));
      add(c, el('span', 'what', t.whats[what[i]]));
      add(c, el('span', 'where', pl[0] ? baseName(pl[0]) + ':' + pl[1] : (pl[3] || '?')));
      if (pl[2]) add(c, el('span', 'fn', pl[2]));
      c.title = (m ? m.text + '\n' : '') + (pl[0] || pl[3] || '') + (pl[1] ? ':' + pl[1] : '') + (pl[2] ? ' (' + pl[2] + ')' : '');
    }
    ++rowsDrawn;
    return row;
  }
  function foldRow(from, to) {  // steps [from, to) of one thread, drawn on request
    var row = el('div', 'trow fold');
    row.style.gridTemplateColumns = columns;
    row.style.minWidth = rowWidth;
    add(row, el('div', 'stepno', (from + 1) + '\u2013' + to));
    var fns = [];
    for (var k = from; k < to && fns.length < 4; ++k) { var f = t.places[place[k]][2]; if (f && fns.indexOf(f) < 0) fns.push(f); }
    for (var lane = 0; lane < lanes; ++lane) {
      var c = add(row, el('div', 'cell'));
      if (lane === thread[from]) {
        c.textContent = '\u22ef ' + plural(to - from, 'step') + ' of T' + lane + (fns.length ? ' in ' + fns.join(', ') : '');
        var b = add(c, el('button', null, to - from > EXPAND_CHUNK ? 'show ' + EXPAND_CHUNK : 'show'));
        b.addEventListener('click', function () {
          var end = Math.min(to, from + EXPAND_CHUNK), frag = document.createDocumentFragment();
          for (var k2 = from; k2 < end; ++k2) frag.appendChild(stepRow(k2));
          if (end < to) frag.appendChild(foldRow(end, to));
          row.replaceWith(frag);
        });
      } else if (blockedAt(lane, from) && blockedAt(lane, to - 1)) { c.classList.add('blocked'); }
    }
    ++rowsDrawn;
    return row;
  }
  function itemRow(item) { return typeof item === 'number' ? stepRow(item) : foldRow(item.from, item.to); }
  function gapRow(from, to) {  // items [from, to) not drawn yet
    var row = el('div', 'trow gap');
    row.style.gridTemplateColumns = columns;
    row.style.minWidth = rowWidth;
    add(row, el('div', 'stepno', '\u22ef'));
    var c = add(row, el('div', null, plural(to - from, 'row') + ' not drawn'));
    c.style.gridColumn = '2 / span ' + lanes;
    var b = add(c, el('button', null, 'draw ' + Math.min(EXPAND_CHUNK, to - from)));
    b.addEventListener('click', function () {
      var end = Math.min(to, from + EXPAND_CHUNK), frag = document.createDocumentFragment();
      for (var k = from; k < end; ++k) frag.appendChild(itemRow(items[k]));
      if (end < to) frag.appendChild(gapRow(end, to));
      row.replaceWith(frag);
    });
    return row;
  }
  var frag = document.createDocumentFragment();
  for (i = 0; i < items.length;) {
    if (show[i]) { frag.appendChild(itemRow(items[i])); ++i; continue; }
    var start = i;
    while (i < items.length && !show[i]) ++i;
    frag.appendChild(gapRow(start, i));
  }
  box.appendChild(frag);
  if (jumpBox) {
    add(jumpBox, el('span', 'muted', 'jump to: '));
    jumps.forEach(function (j) {
      var a = add(jumpBox, el('a', null, j[1] + ' (step ' + (j[0] + 1) + ')'));
      a.href = '#g' + groupIndex + '-s' + j[0];
    });
  }
  box.setAttribute('data-rows', String(rowsDrawn));
  box.setAttribute('data-steps', String(n));
}

// ---- localization ----
var loc = data.localization;
if (loc) {
  add(root, el('h2', null, 'Localization'));
  if (loc.instrumented === false) {
    add(root, el('p', 'note', 'The test recorded no shared-memory access: it is not built with the instrumentation, so nothing was ranked.'));
  } else {
    facts(root, [['runs', loc.runs + ', ' + loc.failing + ' failing (baseline ' + percent(loc.baseline_rate || 0) + ')']]);
    if (loc.lock_cycle) { add(root, el('h3', null, 'Lock-order cycle')); add(root, el('pre', null, loc.lock_cycle.text)); }
    if (loc.falcon && loc.falcon.patterns) patternTable(loc.falcon);
    if (loc.locon && loc.locon.findings && loc.locon.findings.length) {
      add(root, el('h3', null, 'Locon findings (seed ' + loc.locon.failing_seed + ')'));
      var tb = add(root, el('table', 'patterns'));
      var hr = add(tb, el('tr'));
      ['procedure', 'order', 'reason', 'verdict'].forEach(function (h) { add(hr, el('th', null, h)); });
      loc.locon.findings.forEach(function (f) {
        var tr = add(tb, el('tr'));
        add(tr, el('td', null, f.procedure + ' (' + f.level + ')'));
        add(tr, el('td', 'mono', f.order));
        add(tr, el('td', null, f.reason));
        var v = f.confirmation ? f.confirmation.verdict : 'not forced';
        add(add(tr, el('td')), el('span', 'verdict ' + (f.confirmation ? v : 'unforced'), v));
      });
    }
    if (loc.spectra && loc.spectra.components && loc.spectra.components.length) {
      add(root, el('h3', null, 'Most suspicious functions (block spectra)'));
      add(root, el('pre', null, loc.spectra.components.slice(0, 10).map(function (c) {
        return c.rank + '  ' + Number(c.score).toFixed(2) + '  ' + c.component; }).join('\n')));
    }
    if (loc.prediction && loc.prediction.orders && loc.prediction.orders.length) {
      add(root, el('h3', null, 'Predicted orders (ConSeq)'));
      add(root, el('pre', null, loc.prediction.orders.map(function (o, k) { return (k + 1) + '. ' + (o.line || JSON.stringify(o)); }).join('\n')));
    }
  }
}

function evidence(c) {
  if (!c) return '';
  var text = 'forced ' + c.forced_runs + ' runs: ' + c.failed + ' failed the same way, ' + c.completed + ' completed the order';
  if (c.baseline_rate !== undefined) text += '; baseline ' + percent(c.baseline_rate);
  if (c.test && c.test.p_above_baseline !== undefined) text += '; p = ' + Number(c.test.p_above_baseline).toPrecision(2);
  if (c.reason) text += '. ' + c.reason;
  if (c.binding) text += ' (' + c.binding + ')';
  if (c.replay) text += '. Replay a forced failure: ' + c.replay;
  return text;
}
function patternTable(falcon) {
  add(root, el('h3', null, 'Ranked interleaving patterns (Falcon, ' + falcon.score + ')'));
  if (chosen) {
    add(root, el('p', 'muted', 'Highlighted on the timeline: rank ' + chosen.pattern.rank + ', ' + chosen.pattern.kind + ' \u2014 ' +
      (chosen.status === 'confirmed' ? 'confirmed by forcing it.' : 'the top-ranked pattern (forcing confirmed none).')));
  }
  var table = add(root, el('table', 'patterns'));
  var hr = add(table, el('tr'));
  ['rank', 'score', 'pattern', 'on', 'accesses', 'runs failed / passed', 'verdict', 'evidence'].forEach(function (h) { add(hr, el('th', null, h)); });
  falcon.patterns.forEach(function (p, k) {
    var tr = add(table, el('tr', chosen && chosen.index === k ? 'chosen' : null));
    tr.setAttribute('data-rank', String(p.rank));
    add(tr, el('td', null, p.rank + (p.tied > 1 ? ' (tied)' : '')));
    add(tr, el('td', null, Number(p.score).toFixed(2)));
    add(tr, el('td', 'mono', p.kind));
    add(tr, el('td', 'mono', p.location));
    add(tr, el('td', 'mono', p.accesses.map(function (a) { return a.access + a.role + ' ' + a.site + ' [T' + a.thread + ']'; }).join('\n'))).style.whiteSpace = 'pre';
    add(tr, el('td', null, p.failed + ' / ' + p.passed));
    var v = p.confirmation ? p.confirmation.verdict : (p.symptom ? 'symptom' : 'not forced');
    add(add(tr, el('td')), el('span', 'verdict ' + (p.confirmation ? v : (p.symptom ? 'symptom' : 'unforced')), v));
    add(tr, el('td', null, evidence(p.confirmation)));
  });
}

var first = document.querySelector('.timeline[data-group="0"]');
status.setAttribute('data-lanes', first ? String(first.querySelectorAll('.lane-head').length) : '0');
status.setAttribute('data-rows', first ? first.getAttribute('data-rows') : '0');
status.setAttribute('data-script-ms', String(Math.round(performance.now() - started)));
status.setAttribute('data-ready-ms', String(Math.round(performance.now())));
status.setAttribute('data-errors', String(errors.length));
status.setAttribute('data-state', 'done');
})();
</script>
</body>
</html>
)HTML";

}  // namespace

std::string_view html_page_before_data() { return kBefore; }
std::string_view html_page_after_data() { return kAfter; }

}  // namespace ctrlsched::driver
