// site.js: sorting for the tables of the player and tournament pages. The
// pages have every number without it. Works from file://; no network.
(function () {
  "use strict";
  function num(s) { return s === "" ? NaN : +s.replace("\u2212", "-").replace("\u00bd", ".5").split(/[\u2013 ]/)[0]; }
  function sortable(table) {
    var heads = table.tHead.rows[0].cells, tbody = table.tBodies[0];
    var rows = Array.prototype.slice.call(tbody.rows), key = -1, dir = 1;
    Array.prototype.forEach.call(heads, function (th, c) {
      th.tabIndex = 0;
      th.setAttribute("data-col", c);
      var go = function () {
        dir = key === c ? -dir : 1;
        key = c;
        var vals = rows.map(function (tr) { return tr.cells[c] ? tr.cells[c].textContent : ""; });
        var numeric = vals.every(function (v) { return v === "" || !isNaN(num(v)); });
        var idx = rows.map(function (_, i) { return i; });
        idx.sort(function (a, b) {
          var x = vals[a], y = vals[b], d;
          if (numeric) { x = num(x); y = num(y); d = (isNaN(x) ? -1e9 : x) - (isNaN(y) ? -1e9 : y); }
          else d = x.localeCompare(y);
          return d !== 0 ? d * dir : a - b;
        });
        tbody.replaceChildren.apply(tbody, idx.map(function (i) { return rows[i]; }));
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
      };
      th.onclick = go;
      th.onkeydown = function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } };
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.list"), sortable);
})();
