/**
 * The dialogue viewer's script, inlined in the report. It reads the episodes from the JSON block
 * `#episodes` and builds the DOM with `textContent` only (never `innerHTML`), so customer text
 * cannot inject markup. Episodes are filtered (system, kind, label, outcome, hand-off class,
 * failure reason, key) and sorted (failures first by default); at most `PAGE` are shown at a
 * time, with a button for more. Each episode has an id and a ¶ link: an address whose fragment
 * names an episode opens it (clearing filters that hide it). The packet is laid out as the staff
 * console's PacketView shows it (web/console/src/PacketView.tsx): the same fields and sections in
 * the same order.
 */
export const VIEWER_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('episodes').textContent);
  var systems = data.systems;
  var reasonNames = data.reasons;
  var episodes = data.episodes;
  episodes.forEach(function (e, i) { e.order = i; e.anchor = 'ep-' + e.s + '-' + e.key; });
  var PAGE = 40;
  var shown = PAGE;
  var list = document.getElementById('episode-list');
  var countEl = document.getElementById('episode-count');
  var more = document.getElementById('show-more');
  var sortEl = document.getElementById('sort');
  var filters = {
    system: document.getElementById('f-system'),
    kind: document.getElementById('f-kind'),
    label: document.getElementById('f-label'),
    outcome: document.getElementById('f-outcome'),
    handoff: document.getElementById('f-handoff'),
    reason: document.getElementById('f-reason'),
    text: document.getElementById('f-text')
  };
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function options(select, values) {
    values.forEach(function (v) {
      var o = el('option', null, v[1]);
      o.value = v[0];
      select.appendChild(o);
    });
  }
  options(filters.system, systems.map(function (s, i) { return [String(i), s]; }));
  var kinds = {};
  var codes = {};
  episodes.forEach(function (e) {
    kinds[e.kind] = true;
    e.f.forEach(function (r) { codes[r[0]] = true; });
  });
  options(filters.kind, Object.keys(kinds).sort().map(function (k) { return [k, k]; }));
  options(filters.reason, Object.keys(reasonNames).filter(function (c) { return codes[c]; }).map(function (c) { return [c, reasonNames[c]]; }));

  function matches(e) {
    if (filters.system.value !== '' && String(e.s) !== filters.system.value) return false;
    if (filters.kind.value !== '' && e.kind !== filters.kind.value) return false;
    if (filters.label.value === 'should' && !e.should) return false;
    if (filters.label.value === 'should-not' && e.should) return false;
    if (filters.outcome.value === 'success' && e.success !== true) return false;
    if (filters.outcome.value === 'failure' && e.success !== false) return false;
    if (filters.outcome.value === 'unscored' && e.success !== null) return false;
    if (filters.handoff.value !== '' && e.cls !== filters.handoff.value) return false;
    var r = filters.reason.value;
    if (r === 'any' && e.f.length === 0) return false;
    if (r !== '' && r !== 'any' && !e.f.some(function (x) { return x[0] === r; })) return false;
    var q = filters.text.value.trim().toLowerCase();
    if (q !== '' && e.key.toLowerCase().indexOf(q) < 0) return false;
    return true;
  }

  function cmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
  var sorters = {
    recorded: function (a, b) { return a.order - b.order; },
    key: function (a, b) { return cmp(a.key, b.key) || a.s - b.s; },
    failures: function (a, b) { return (b.f.length > 0) - (a.f.length > 0) || a.order - b.order; },
    reason: function (a, b) {
      var x = a.f.length > 0 ? reasonNames[a.f[0][0]] : null;
      var y = b.f.length > 0 ? reasonNames[b.f[0][0]] : null;
      if (x === null || y === null) return (x === null) - (y === null) || a.order - b.order;
      return cmp(x, y) || cmp(a.f[0][1], b.f[0][1]) || a.order - b.order;
    },
    violations: function (a, b) { return b.v.length - a.v.length || a.order - b.order; }
  };

  // Text with the cited policy terms wrapped in <mark>, built node by node.
  function highlighted(text, terms) {
    var frag = document.createDocumentFragment();
    if (!terms || terms.length === 0) { frag.appendChild(document.createTextNode(text)); return frag; }
    var lower = text.toLowerCase();
    var i = 0;
    while (i < text.length) {
      var best = -1, len = 0;
      terms.forEach(function (t) {
        var j = lower.indexOf(String(t).toLowerCase(), i);
        if (j >= 0 && (best < 0 || j < best)) { best = j; len = String(t).length; }
      });
      if (best < 0 || len === 0) { frag.appendChild(document.createTextNode(text.slice(i))); break; }
      if (best > i) frag.appendChild(document.createTextNode(text.slice(i, best)));
      frag.appendChild(el('mark', 'cited', text.slice(best, best + len)));
      i = best + len;
    }
    return frag;
  }

  // As the console's describe.ts: 'queue_billing' → 'billing', 'no_capability' → 'no capability'.
  function words(code) { return code ? String(code).replace(/^queue_/, '').replace(/_/g, ' ') : '—'; }
  function intentText(intent) {
    if (typeof intent === 'string') return intent;
    if (intent && typeof intent.stated === 'string') return typeof intent.latest === 'string' && intent.latest !== intent.stated ? intent.stated + ' — now: ' + intent.latest : intent.stated;
    return '—';
  }
  function show(v) { return typeof v === 'string' ? v : JSON.stringify(v); }
  function args(a) {
    return a && Object.keys(a).length ? Object.keys(a).map(function (k) { return k + '=' + show(a[k]); }).join(', ') : '';
  }
  function actionLine(a) {
    var li = el('li', 'action ' + a.status);
    if (a.status === 'planned') {
      li.appendChild(el('span', 'pbadge warn', 'not taken'));
      li.appendChild(document.createTextNode(' ' + (a.tool || 'an action') + ' ' + (a.arguments ? '(' + args(a.arguments) + ')' : '') + ' — ' + a.why));
    } else {
      li.appendChild(el('span', 'pbadge ' + (a.status === 'succeeded' ? 'ok' : 'warn'), a.status === 'succeeded' ? 'done' : 'failed'));
      li.appendChild(document.createTextNode(' ' + a.tool + '(' + args(a.arguments) + ')' + (a.status === 'failed' ? ' — ' + a.error : '')));
    }
    return li;
  }
  function essential(dl, term, value, cls) {
    var div = el('div', cls || null);
    div.appendChild(el('dt', null, term));
    var dd = el('dd');
    if (typeof value === 'string') dd.textContent = value; else dd.appendChild(value);
    div.appendChild(dd);
    dl.appendChild(div);
    return dd;
  }
  // The packet, first the essentials (who, how verified, what they want, why the agent stopped, the
  // suggested next step, the model's summary), then what was done and not, open questions, facts.
  function renderPacket(p) {
    var box = el('div', 'packet-view');
    box.dataset.testid = 'packet';
    if (!p) { box.appendChild(el('p', 'empty', 'No context packet.')); return box; }
    var c = p.customer || {};
    var dl = el('dl', 'essentials');
    var who = document.createDocumentFragment();
    who.appendChild(document.createTextNode((c.id || 'not identified') + ' '));
    who.appendChild(el('span', 'pbadge ' + (c.verified ? 'ok' : 'warn'), c.verified ? 'verified by ' + (c.verified_by || 'a check') : 'not verified'));
    essential(dl, 'Customer', who);
    essential(dl, 'Wants', intentText(p.intent));
    var reason = document.createDocumentFragment();
    reason.appendChild(document.createTextNode(words(p.handoff && p.handoff.reason)));
    if (p.handoff && p.handoff.evidence) reason.appendChild(el('q', 'evidence', p.handoff.evidence));
    essential(dl, 'Why the agent stopped', reason);
    essential(dl, 'Suggested next step', p.suggested_next_step || '—', 'next');
    if (p.summary) essential(dl, 'Summary, written by the model (not checked)', p.summary.text, 'summary');
    box.appendChild(dl);
    var actions = p.actions || [];
    var done = actions.filter(function (a) { return a.status !== 'planned'; });
    var notDone = actions.filter(function (a) { return a.status === 'planned'; });
    box.appendChild(el('h4', null, 'What was done'));
    if (done.length === 0) box.appendChild(el('p', 'empty', 'Nothing yet.'));
    else { var ul = el('ul', 'actions'); done.forEach(function (a) { ul.appendChild(actionLine(a)); }); box.appendChild(ul); }
    if (notDone.length > 0) {
      box.appendChild(el('h4', null, 'Not done, and why'));
      var ul2 = el('ul', 'actions'); notDone.forEach(function (a) { ul2.appendChild(actionLine(a)); }); box.appendChild(ul2);
    }
    if ((p.open_questions || []).length > 0) {
      box.appendChild(el('h4', null, 'Open questions'));
      var ul3 = el('ul'); p.open_questions.forEach(function (q) { ul3.appendChild(el('li', null, q)); }); box.appendChild(ul3);
    }
    box.appendChild(el('h4', null, 'Facts, with their sources'));
    var facts = p.facts || [];
    if (facts.length === 0) box.appendChild(el('p', 'empty', 'No facts from tools.'));
    else {
      var table = el('table', 'facts');
      var head = el('tr');
      ['Fact', 'Value', 'Source'].forEach(function (h) { var th = el('th', null, h); th.scope = 'col'; head.appendChild(th); });
      var thead = el('thead'); thead.appendChild(head); table.appendChild(thead);
      var tbody = el('tbody');
      facts.forEach(function (f) {
        var tr = el('tr');
        tr.appendChild(el('td', null, f.field)); tr.appendChild(el('td', null, String(f.value))); tr.appendChild(el('td', null, f.source));
        tbody.appendChild(tr);
      });
      table.appendChild(tbody);
      box.appendChild(table);
    }
    if ((p.facts_omitted || 0) > 0) box.appendChild(el('p', 'note', p.facts_omitted + ' more facts left out; see the transcript.'));
    var redacted = Object.keys(p.redactions || {}).filter(function (k) { return p.redactions[k] > 0; });
    if (redacted.length > 0) box.appendChild(el('p', 'note', 'Redacted, never shown: ' + redacted.map(function (k) { return p.redactions[k] + ' ' + k; }).join(', ') + '.'));
    return box;
  }

  var MARKERS = { '###STOP###': 'the simulated customer ended the conversation (###STOP###)', '###TRANSFER###': 'the simulated customer ended the conversation after the transfer (###TRANSFER###)', '###OUT-OF-SCOPE###': 'the simulated customer ended the conversation: out of its scenario (###OUT-OF-SCOPE###)' };

  function renderMessage(e, m, idx) {
    var row = el('div', 'msg ' + m.r);
    row.dataset.index = String(idx);
    var bubble = el('div', 'bubble');
    var who = m.r === 'user' ? 'customer' : m.r === 'assistant' ? 'agent' : 'tool' + (m.e ? ' (error)' : '') + (m.x === false ? ' (refused by harness)' : '');
    bubble.appendChild(el('div', 'who', '#' + idx + ' ' + who));
    var cite = null;
    (e.c || []).forEach(function (c) { if (c[0] === idx) cite = c; });
    if (m.c !== null && m.c !== undefined && m.c !== '') {
      var body = el('div', 'text');
      body.appendChild(highlighted(String(m.c), cite && cite[2] ? cite[1] : null));
      bubble.appendChild(body);
    }
    (m.t || []).forEach(function (t) {
      bubble.appendChild(el('div', 'call', t.n + '(' + JSON.stringify(t.a) + ')'));
    });
    if (cite) {
      bubble.appendChild(el('div', 'badge ' + (cite[2] ? 'cite-yes' : 'cite-no'), cite[3] + (cite[2] ? ': cites ' + cite[1].join(', ') : ': names no policy reason')));
    }
    var vs = (e.v || []).filter(function (v) { return v[0] === idx; });
    if (vs.length > 0) {
      row.classList.add('violation');
      vs.forEach(function (v) { bubble.appendChild(el('div', 'badge viol', '⚠ ' + v[1] + (v[2] ? ' (' + v[2] + ')' : ''))); });
    }
    var nodes = [];
    if (bubble.childNodes.length > 1 || !m.end) { row.appendChild(bubble); nodes.push(row); }
    if (m.end) {
      var sim = el('div', 'msg sim');
      sim.dataset.index = String(idx);
      sim.appendChild(el('div', 'bubble', MARKERS[m.end] || 'the simulator: ' + m.end));
      nodes.push(sim);
    }
    if (e.h === idx) {
      row.classList.add('handoff');
      var side = el('aside', 'packet');
      // It scrolls when long: reachable by keyboard, and named.
      side.tabIndex = 0;
      side.setAttribute('aria-label', 'hand-off packet');
      side.appendChild(el('div', 'who', 'hand-off packet' + (e.target ? ' → ' + e.target : '')));
      side.appendChild(renderPacket(e.p));
      row.appendChild(side);
    }
    return nodes;
  }

  function renderEpisode(e) {
    var d = el('details', 'episode');
    d.id = e.anchor;
    d.dataset.system = systems[e.s];
    d.dataset.key = e.key;
    d.dataset.reasons = e.f.map(function (r) { return r[0]; }).join(' ');
    var sum = el('summary');
    sum.appendChild(el('span', 'sys', systems[e.s]));
    sum.appendChild(el('span', 'key', e.key));
    sum.appendChild(el('span', 'tag ' + (e.success === true ? 'ok' : e.success === false ? 'bad' : 'na'), e.success === true ? 'success' : e.success === false ? 'failure' : 'unscored'));
    sum.appendChild(el('span', 'tag cls-' + e.cls, e.cls.toUpperCase()));
    if (e.inf) sum.appendChild(el('span', 'tag bad', 'infrastructure failed: ' + e.inf + ' (not in the figures)'));
    sum.appendChild(el('span', 'tag', e.should ? 'should transfer' : 'should not transfer'));
    if (e.v && e.v.length > 0) sum.appendChild(el('span', 'tag bad', e.v.length + ' violation' + (e.v.length > 1 ? 's' : '')));
    if (e.f.length > 0) sum.appendChild(el('span', 'why', e.f[0][1] + (e.f.length > 1 ? ' (+' + (e.f.length - 1) + ' more)' : '')));
    d.appendChild(sum);
    var filled = false;
    d.addEventListener('toggle', function () {
      if (!d.open || filled) return;
      filled = true;
      if (e.f.length > 0) {
        var box = el('div', 'reasons');
        box.appendChild(el('b', null, e.success === false ? 'Why it failed (the evaluator\u2019s verdict)' : 'Not scored'));
        var ul = el('ul');
        e.f.forEach(function (r) { var li = el('li', null, r[1]); li.dataset.code = r[0]; ul.appendChild(li); });
        box.appendChild(ul);
        d.appendChild(box);
      }
      var meta = el('div', 'meta');
      meta.appendChild(el('div', null, 'style ' + e.style + ' · trial ' + e.trial + ' · ended: ' + e.term + (e.due !== null ? ' · hand-off due at customer turn ' + e.due : '')));
      if (e.rule) meta.appendChild(el('div', 'rule', 'label: ' + e.rule));
      d.appendChild(meta);
      e.m.forEach(function (m, i) { renderMessage(e, m, i).forEach(function (n) { d.appendChild(n); }); });
    });
    // The link sits beside the summary, not in it (a link inside a summary is a control inside a control).
    var item = el('div', 'episode-item');
    var link = el('a', 'permalink', '¶');
    link.href = '#' + encodeURIComponent(e.anchor);
    link.title = 'link to this episode';
    link.setAttribute('aria-label', 'link to episode ' + systems[e.s] + ' ' + e.key);
    item.appendChild(link);
    item.appendChild(d);
    return item;
  }

  function hits() {
    return episodes.filter(matches).sort(sorters[sortEl.value] || sorters.failures);
  }
  function refresh() {
    var found = hits();
    while (list.firstChild) list.removeChild(list.firstChild);
    found.slice(0, shown).forEach(function (e) { list.appendChild(renderEpisode(e)); });
    countEl.textContent = found.length + ' of ' + episodes.length + ' episodes match' + (found.length > shown ? ' (showing ' + shown + ')' : '');
    more.hidden = found.length <= shown;
  }
  // The episode an address names: the filters that hide it are cleared, it is shown, opened and scrolled to.
  function openFromHash() {
    var name = '';
    try { name = decodeURIComponent(location.hash.slice(1)); } catch (err) { return; }
    var target = null;
    episodes.forEach(function (e) { if (e.anchor === name) target = e; });
    if (!target) return;
    if (!matches(target)) Object.keys(filters).forEach(function (k) { filters[k].value = ''; });
    var at = hits().indexOf(target);
    if (at >= shown) shown = Math.ceil((at + 1) / PAGE) * PAGE;
    refresh();
    var node = document.getElementById(target.anchor);
    if (!node) return;
    node.classList.add('linked');
    node.open = true;
    node.scrollIntoView();
  }
  Object.keys(filters).forEach(function (k) {
    filters[k].addEventListener(k === 'text' ? 'input' : 'change', function () { shown = PAGE; refresh(); });
  });
  sortEl.addEventListener('change', function () { shown = PAGE; refresh(); });
  more.addEventListener('click', function () { shown += PAGE; refresh(); });
  window.addEventListener('hashchange', openFromHash);
  refresh();
  openFromHash();
})();
`;
