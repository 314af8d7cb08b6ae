/**
 * The dialogue viewer's script, inlined in the report. It reads the episodes from the JSON block
 * `#episodes` and builds the DOM with `textContent` only (never `innerHTML`), so customer text
 * cannot inject markup. Shown at most `PAGE` episodes at a time, with a button for more.
 */
export const VIEWER_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('episodes').textContent);
  var systems = data.systems;
  var episodes = data.episodes;
  var PAGE = 40;
  var shown = PAGE;
  var list = document.getElementById('episode-list');
  var countEl = document.getElementById('episode-count');
  var more = document.getElementById('show-more');
  var filters = {
    system: document.getElementById('f-system'),
    kind: document.getElementById('f-kind'),
    label: document.getElementById('f-label'),
    outcome: document.getElementById('f-outcome'),
    handoff: document.getElementById('f-handoff'),
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
  episodes.forEach(function (e) { kinds[e.kind] = true; });
  options(filters.kind, Object.keys(kinds).sort().map(function (k) { return [k, k]; }));

  function matches(e) {
    if (filters.system.value !== '' && String(e.s) !== filters.system.value) return false;
    if (filters.kind.value !== '' && e.kind !== filters.kind.value) return false;
    if (filters.label.value === 'should' && !e.should) return false;
    if (filters.label.value === 'should-not' && e.should) return false;
    if (filters.outcome.value === 'success' && e.success !== true) return false;
    if (filters.outcome.value === 'failure' && e.success !== false) return false;
    if (filters.outcome.value === 'unscored' && e.success !== null) return false;
    if (filters.handoff.value !== '' && e.cls !== filters.handoff.value) return false;
    var q = filters.text.value.trim().toLowerCase();
    if (q !== '' && e.key.toLowerCase().indexOf(q) < 0) return false;
    return true;
  }

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

  function renderMessage(e, m, idx) {
    var row = el('div', 'msg ' + m.r);
    row.dataset.index = String(idx);
    var bubble = el('div', 'bubble');
    var who = m.r === 'user' ? 'customer' : m.r === 'assistant' ? 'agent' : 'tool' + (m.e ? ' (error)' : '') + (m.x === false ? ' (refused by harness)' : '');
    bubble.appendChild(el('div', 'who', '#' + idx + ' ' + who));
    var cite = null;
    (e.c || []).forEach(function (c) { if (idx >= c[0] && idx <= c[1]) cite = c; });
    if (m.c !== null && m.c !== undefined && m.c !== '') {
      var body = el('div', 'text');
      body.appendChild(highlighted(String(m.c), cite && cite[3] ? cite[2] : null));
      bubble.appendChild(body);
    }
    (m.t || []).forEach(function (t) {
      bubble.appendChild(el('div', 'call', t.n + '(' + JSON.stringify(t.a) + ')'));
    });
    if (cite) {
      bubble.appendChild(el('div', 'badge ' + (cite[3] ? 'cite-yes' : 'cite-no'), cite[4] + (cite[3] ? ': cites ' + cite[2].join(', ') : ': names no policy reason')));
    }
    var vs = (e.v || []).filter(function (v) { return v[0] === idx; });
    if (vs.length > 0) {
      row.classList.add('violation');
      vs.forEach(function (v) { bubble.appendChild(el('div', 'badge viol', '⚠ ' + v[1] + (v[2] ? ' (' + v[2] + ')' : ''))); });
    }
    row.appendChild(bubble);
    if (e.h === idx) {
      row.classList.add('handoff');
      var side = el('aside', 'packet');
      side.appendChild(el('div', 'who', 'hand-off packet' + (e.target ? ' → ' + e.target : '')));
      side.appendChild(el('pre', null, e.p ? JSON.stringify(e.p, null, 2) : '(no packet)'));
      row.appendChild(side);
    }
    return row;
  }

  function renderEpisode(e) {
    var d = el('details', 'episode');
    d.dataset.system = systems[e.s];
    d.dataset.key = e.key;
    var sum = el('summary');
    sum.appendChild(el('span', 'sys', systems[e.s]));
    sum.appendChild(el('span', 'key', e.key));
    sum.appendChild(el('span', 'tag ' + (e.success === true ? 'ok' : e.success === false ? 'bad' : 'na'), e.success === true ? 'success' : e.success === false ? 'failure' : 'unscored'));
    sum.appendChild(el('span', 'tag cls-' + e.cls, e.cls.toUpperCase()));
    if (e.inf) sum.appendChild(el('span', 'tag bad', 'infrastructure failed: ' + e.inf + ' (not in the figures)'));
    sum.appendChild(el('span', 'tag', e.should ? 'should transfer' : 'should not transfer'));
    if (e.v && e.v.length > 0) sum.appendChild(el('span', 'tag bad', e.v.length + ' violation' + (e.v.length > 1 ? 's' : '')));
    d.appendChild(sum);
    var filled = false;
    d.addEventListener('toggle', function () {
      if (!d.open || filled) return;
      filled = true;
      var meta = el('div', 'meta');
      meta.appendChild(el('div', null, 'style ' + e.style + ' · trial ' + e.trial + ' · ended: ' + e.term + (e.due !== null ? ' · hand-off due at customer turn ' + e.due : '')));
      if (e.rule) meta.appendChild(el('div', 'rule', 'label: ' + e.rule));
      d.appendChild(meta);
      e.m.forEach(function (m, i) { d.appendChild(renderMessage(e, m, i)); });
    });
    return d;
  }

  function refresh() {
    var hits = episodes.filter(matches);
    while (list.firstChild) list.removeChild(list.firstChild);
    hits.slice(0, shown).forEach(function (e) { list.appendChild(renderEpisode(e)); });
    countEl.textContent = hits.length + ' of ' + episodes.length + ' episodes match' + (hits.length > shown ? ' (showing ' + shown + ')' : '');
    more.hidden = hits.length <= shown;
  }
  Object.keys(filters).forEach(function (k) {
    filters[k].addEventListener(k === 'text' ? 'input' : 'change', function () { shown = PAGE; refresh(); });
  });
  more.addEventListener('click', function () { shown += PAGE; refresh(); });
  refresh();
})();
`;
