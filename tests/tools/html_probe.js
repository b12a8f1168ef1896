// html_probe.js - appended (inside <script>) to a copy of an ec2fit HTML
// report by tests/scripts/test_html_report.sh; headless Chromium runs it
// and --dump-dom carries the result out as <pre id="probe"> JSON: the
// chart's viewBox, every label's box, the tick labels, and the no-wrap
// table cells (numbers, types, regions) that wrap onto a second line.
(function () {
  var out = {labels: [], xticks: [], yticks: [], wrapped: [], circles: 0};
  var svg = document.querySelector('svg.scatter');
  if (svg) {
    var vb = svg.viewBox.baseVal;
    out.viewBox = [vb.x, vb.y, vb.width, vb.height];
    // rendered boxes (after any transform), in viewBox units
    var s = svg.getBoundingClientRect();
    var kx = vb.width / s.width, ky = vb.height / s.height;
    svg.querySelectorAll('text').forEach(function (t) {
      var b = t.getBoundingClientRect();
      var r = {text: t.textContent, cls: t.getAttribute('class'),
               x0: vb.x + (b.left - s.left) * kx, y0: vb.y + (b.top - s.top) * ky,
               x1: vb.x + (b.right - s.left) * kx, y1: vb.y + (b.bottom - s.top) * ky};
      if (r.cls === 'label') out.labels.push(r);
      if (r.cls === 'tick')
        (t.getAttribute('text-anchor') === 'end' ? out.yticks : out.xticks).push(r);
      if (r.cls === 'axis') out.axes = (out.axes || []).concat([r]);
    });
    out.circles = svg.querySelectorAll('circle.plan').length;
    // each point's rendered centre and rank, each label's rank, and the
    // leader lines (rank), in viewBox units: a label must read as its own
    // point's (html_check.py labels)
    out.dots = [];
    svg.querySelectorAll('circle.plan').forEach(function (c) {
      var b = c.getBoundingClientRect();
      out.dots.push({rank: +c.getAttribute('data-rank'),
                     cx: vb.x + ((b.left + b.right) / 2 - s.left) * kx,
                     cy: vb.y + ((b.top + b.bottom) / 2 - s.top) * ky});
    });
    out.leaders = [];
    svg.querySelectorAll('line.leader').forEach(function (l) {
      out.leaders.push(+l.getAttribute('data-rank'));
    });
    svg.querySelectorAll('text.label').forEach(function (t, i) {
      out.labels[i].rank = +t.getAttribute('data-rank');
    });
  }
  // the ranked table as the reader sees it: one array of cell texts a row
  out.rows = [];
  document.querySelectorAll('table.plans tbody tr').forEach(function (tr) {
    out.rows.push(Array.prototype.map.call(tr.cells, function (td) {
      return td.textContent;
    }));
  });
  // layout at this window width: the page must not scroll sideways (a
  // wide table scrolls inside its own container instead)
  out.layout = {innerWidth: window.innerWidth,
                scrollWidth: document.documentElement.scrollWidth,
                bodyRight: document.body.getBoundingClientRect().right,
                over: []};
  document.querySelectorAll('body *').forEach(function (el) {
    var r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > window.innerWidth + 0.5 && !(el.parentElement && el.parentElement.closest('.wide')))
      out.layout.over.push(el.tagName + '.' + (el.getAttribute('class') || '') +
                           ' right=' + Math.round(r.right));
  });
  // a text node laid out on more than one line box has wrapped: numbers,
  // instance types, purchase options and regions must not
  document.querySelectorAll('table td.num, table td.nw').forEach(function (td) {
    var w = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
    for (var n = w.nextNode(); n; n = w.nextNode()) {
      var rg = document.createRange();
      rg.selectNodeContents(n);
      var tops = {};
      Array.prototype.forEach.call(rg.getClientRects(), function (r) {
        tops[Math.round(r.top)] = 1;
      });
      if (Object.keys(tops).length > 1) { out.wrapped.push(td.textContent); break; }
    }
  });
  var pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
