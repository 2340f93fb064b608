// list.js: search, filter, sort and page a rating list loaded from
// data/*.js (window.RATELIST_LIST). Works from file://; no network.
(function () {
  "use strict";
  var d = window.RATELIST_LIST;
  var table = document.getElementById("list");
  if (!d || !table) return;
  var PAGE = 100;
  var col = {};
  d.cols.forEach(function (c, i) { col[c] = i; });
  var rows = d.rows;
  var clubName = function (r) { var i = r[col.club]; return i >= 0 ? d.clubs[i] : ""; };
  var state = { q: "", club: "", cat: "", key: "rank", dir: 1, page: 0 };
  var q = document.getElementById("q"), club = document.getElementById("club"), cat = document.getElementById("cat");
  var count = document.getElementById("count"), pager = document.getElementById("pager");
  var tbody = table.tBodies[0];
  var heads = table.tHead.rows[0].cells;
  var numeric = { rank: 1, player_id: 1, rating: 1, change: 1, games_period: 1, games_total: 1, k: 1, player_rating: 1, level: 1, personal_rating: 1 };
  var view = rows;
  // The rule set's own columns sort as numbers when they hold numbers.
  for (var c = col.flags + 1; d.kind === "rating" && c < d.cols.length && d.cols[c] !== "club"; c++) {
    if (rows.length && typeof rows[0][c] === "number") numeric[d.cols[c]] = 1;
  }

  function fold(s) { return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); }
  var folded = rows.map(function (r) { return fold(r[col.name] + " " + r[col.player_id]); });

  function apply() {
    var needle = fold(state.q.trim());
    var idx = [];
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      if (needle && folded[i].indexOf(needle) < 0) continue;
      if (state.club !== "" && String(r[col.club]) !== state.club) continue;
      if (state.cat !== "" && String(r[col.category]) !== state.cat) continue;
      idx.push(i);
    }
    var k = state.key, dir = state.dir;
    var get = k === "club" ? function (i) { return clubName(rows[i]); } : function (i) { return rows[i][col[k]]; };
    idx.sort(function (a, b) {
      var x = get(a), y = get(b), c;
      if (numeric[k]) c = (x === "" ? -1e9 : x) - (y === "" ? -1e9 : y);
      else c = String(x).localeCompare(String(y));
      return c !== 0 ? c * dir : a - b;
    });
    view = idx;
    render();
  }

  function cell(tr, text, cls) {
    var td = document.createElement("td");
    if (cls) td.className = cls;
    td.textContent = text;
    tr.appendChild(td);
    return td;
  }
  // null: not on the list before (a new player), shown empty as on the list itself.
  function signed(n) { return n === null ? "" : n > 0 ? "+" + n : n < 0 ? "\u2212" + (-n) : "0"; }
  function sign(n) { return n > 0 ? " up" : n < 0 ? " down" : ""; }

  function render() {
    var pages = Math.max(1, Math.ceil(view.length / PAGE));
    if (state.page >= pages) state.page = pages - 1;
    var from = state.page * PAGE, to = Math.min(view.length, from + PAGE);
    var frag = document.createDocumentFragment();
    for (var j = from; j < to; j++) {
      var r = rows[view[j]], tr = document.createElement("tr");
      cell(tr, r[col.rank], "n");
      var td = document.createElement("td"), a = document.createElement("a");
      a.href = "players/" + r[col.player_id] + ".html";
      a.textContent = r[col.name];
      td.appendChild(a); tr.appendChild(td);
      cell(tr, clubName(r));
      if (d.kind === "rating") {
        cell(tr, r[col.rating], "n strong");
        cell(tr, signed(r[col.change]), "n" + sign(r[col.change]));
        cell(tr, r[col.games_period], "n");
        cell(tr, r[col.games_total], "n");
        cell(tr, r[col.k], "n");
        cell(tr, r[col.category], "n");
        cell(tr, r[col.flags]);
        // The rule set's own columns, after flags.
        for (var c = col.flags + 1; c < d.cols.length && d.cols[c] !== "club"; c++) cell(tr, r[c], "n");
      } else {
        cell(tr, r[col.player_rating], "n strong");
        cell(tr, r[col.level], "n");
        cell(tr, r[col.level_name]);
        cell(tr, r[col.personal_rating], "n");
        cell(tr, r[col.games_total], "n");
      }
      frag.appendChild(tr);
    }
    tbody.replaceChildren(frag);
    count.textContent = view.length === rows.length ? rows.length + " players" : view.length + " of " + rows.length + " players";
    pager.replaceChildren();
    if (pages > 1) {
      var prev = button("\u2190 Previous", state.page > 0, -1);
      var info = document.createElement("span");
      info.textContent = "Page " + (state.page + 1) + " of " + pages;
      pager.append(prev, info, button("Next \u2192", state.page < pages - 1, 1));
    }
    for (var h = 0; h < heads.length; h++) {
      var th = heads[h], key = th.getAttribute("data-col");
      if (key === state.key) th.setAttribute("aria-sort", state.dir > 0 ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    }
  }
  function button(label, enabled, step) {
    var b = document.createElement("button");
    b.type = "button"; b.textContent = label; b.disabled = !enabled;
    b.onclick = function () { state.page += step; render(); table.scrollIntoView(); };
    return b;
  }

  for (var h = 0; h < heads.length; h++) {
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
    })(heads[h]);
  }
  if (q) q.oninput = function () { state.q = q.value; state.page = 0; apply(); };
  if (club) club.onchange = function () { state.club = club.value; state.page = 0; apply(); };
  if (cat) cat.onchange = function () { state.cat = cat.value; state.page = 0; apply(); };
  document.getElementById("controls").hidden = false;
  apply();
})();
