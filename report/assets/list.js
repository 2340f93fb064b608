// list.js: search, filter, sort and page a list table (table#list). The
// page has every row without it; the script reads them from the table.
// Works from file://; no network.
(function () {
  "use strict";
  var table = document.getElementById("list");
  if (!table) return;
  var PAGE = 100;
  var heads = table.tHead.rows[0].cells, col = {}, numeric = {};
  for (var h = 0; h < heads.length; h++) {
    col[heads[h].getAttribute("data-col")] = h;
    if (heads[h].hasAttribute("data-num")) numeric[heads[h].getAttribute("data-col")] = 1;
  }
  var tbody = table.tBodies[0];
  var trs = Array.prototype.slice.call(tbody.rows);
  function fold(s) { return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); }
  function text(tr, c) { return c === undefined ? "" : tr.cells[c].textContent; }
  function num(s) { return s === "" ? -1e9 : +s.replace("\u2212", "-"); }
  // The search key: the name and the id from the link to the player's page.
  var keys = trs.map(function (tr) {
    var a = tr.cells[col.name].querySelector("a");
    return fold(a.textContent + " " + (a.getAttribute("href").match(/(\d+)\.html$/) || ["", ""])[1]);
  });
  var state = { q: "", club: "", cat: "", key: "rank", dir: 1, page: 0 };
  var q = document.getElementById("q"), club = document.getElementById("club"), cat = document.getElementById("cat");
  var count = document.getElementById("count"), pager = document.getElementById("pager");
  var view = trs;

  function apply() {
    var needle = fold(state.q.trim()), idx = [];
    for (var i = 0; i < trs.length; i++) {
      if (needle && keys[i].indexOf(needle) < 0) continue;
      if (state.club !== "" && text(trs[i], col.club) !== state.club) continue;
      if (state.cat !== "" && text(trs[i], col.category) !== state.cat) continue;
      idx.push(i);
    }
    var c = col[state.key], dir = state.dir, isNum = numeric[state.key];
    var vals = {};
    idx.forEach(function (i) { var t = text(trs[i], c); vals[i] = isNum ? num(t) : t; });
    idx.sort(function (a, b) {
      var x = vals[a], y = vals[b];
      var d = isNum ? x - y : String(x).localeCompare(String(y));
      return d !== 0 ? d * dir : a - b;
    });
    view = idx.map(function (i) { return trs[i]; });
    render();
  }

  function render() {
    var pages = Math.max(1, Math.ceil(view.length / PAGE));
    if (state.page >= pages) state.page = pages - 1;
    var from = state.page * PAGE;
    tbody.replaceChildren.apply(tbody, view.slice(from, from + PAGE));
    count.textContent = view.length === trs.length ? trs.length + " players" : view.length + " of " + trs.length + " players";
    pager.replaceChildren();
    if (pages > 1) {
      var info = document.createElement("span");
      info.textContent = "Page " + (state.page + 1) + " of " + pages;
      pager.append(button("\u2190 Previous", state.page > 0, -1), info, button("Next \u2192", state.page < pages - 1, 1));
    }
    for (var h = 0; h < heads.length; h++) {
      var th = heads[h];
      if (th.getAttribute("data-col") === state.key) th.setAttribute("aria-sort", state.dir > 0 ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    }
  }
  function button(label, enabled, step) {
    var b = document.createElement("button");
    b.type = "button"; b.textContent = label; b.disabled = !enabled;
    b.onclick = function () { state.page += step; render(); table.scrollIntoView(); };
    return b;
  }

  for (var i = 0; i < heads.length; i++) {
    (function (th) {
      var key = th.getAttribute("data-col");
      if (!key) return;
      th.tabIndex = 0;
      var go = function () {
        if (state.key === key) state.dir = -state.dir;
        else { state.key = key; state.dir = numeric[key] && key !== "rank" && key !== "level" ? -1 : 1; }
        state.page = 0; apply();
      };
      th.onclick = go;
      th.onkeydown = function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } };
    })(heads[i]);
  }
  if (q) q.oninput = function () { state.q = q.value; state.page = 0; apply(); };
  if (club) club.onchange = function () { state.club = club.value; state.page = 0; apply(); };
  if (cat) cat.onchange = function () { state.cat = cat.value; state.page = 0; apply(); };
  document.getElementById("controls").hidden = false;
  apply();
})();
