// site.js: draws a player's rating chart from the rating card table, shows a
// player's games and a tournament's crosstable from the tournaments' data
// files (tournaments/ID.js, which store window.RLT[ID]). Works from file://;
// no network.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function sv(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // loadTour runs fn with tournament id's data, loading its script once.
  var waiting = {};
  function loadTour(id, base, fn) {
    var all = window.RLT || {};
    if (all[id]) { fn(all[id]); return; }
    if (waiting[id]) { waiting[id].push(fn); return; }
    waiting[id] = [fn];
    var s = document.createElement("script");
    s.src = base + id + ".js";
    s.onload = s.onerror = function () {
      var d = (window.RLT || {})[id];
      waiting[id].forEach(function (f) { f(d); });
    };
    document.head.appendChild(s);
  }

  // The result texts score 2, 1 or 0 half-points.
  var HALF = { "1": 2, "+": 2, "\u00bd": 1 };
  function half(t) { return HALF[t] || 0; }
  function halfText(h) { return h % 2 ? (h - 1) / 2 + ".5" : String(h / 2); }

  // niceStep returns a round step that cuts span into about n parts.
  function niceStep(span, n) {
    var raw = span / n, p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }

  // chart draws the line of pts into the figure fig, labelled by its caption:
  // [ms since 1970, value] by month, or [game number, value] if games.
  function chart(fig, pts, ylabel, games) {
    var W = 720, H = 280, L = 56, R = 12, T = 10, B = 34;
    var x0 = pts[0][0], x1 = pts[pts.length - 1][0], y0 = Infinity, y1 = -Infinity;
    pts.forEach(function (p) { y0 = Math.min(y0, p[1]); y1 = Math.max(y1, p[1]); });
    var month = 30 * 864e5;
    if (games) { x0 = 0; x1 = pts.length + 1; }
    else if (x1 - x0 < 4 * month) { var mid = (x0 + x1) / 2; x0 = mid - 2 * month; x1 = mid + 2 * month; }
    var padX = games ? 0 : (x1 - x0) * 0.04; x0 -= padX; x1 += padX;
    var padY = Math.max(20, (y1 - y0) * 0.1);
    y0 = Math.floor((y0 - padY) / 10) * 10; y1 = Math.ceil((y1 + padY) / 10) * 10;
    var X = function (v) { return L + (v - x0) / (x1 - x0) * (W - L - R); };
    var Y = function (v) { return H - B - (v - y0) / (y1 - y0) * (H - T - B); };
    var label = fig.querySelector("figcaption").textContent.replace(/\.$/, "");
    var svg = sv("svg", { "class": "chart", role: "img", "aria-label": label, viewBox: "0 0 " + W + " " + H, width: W, height: H });
    svg.appendChild(sv("title", {}, label));
    var grid = sv("g", { "class": "grid" }), ticks = sv("g", { "class": "ticks" });
    var step = niceStep(y1 - y0, 5);
    for (var v = Math.ceil(y0 / step) * step; v <= y1; v += step) {
      grid.appendChild(sv("line", { x1: L, x2: W - R, y1: Y(v), y2: Y(v) }));
      ticks.appendChild(sv("text", { x: L - 6, y: Y(v) + 4, "text-anchor": "end" }, String(v)));
    }
    if (games) {
      var gs = Math.max(1, niceStep(x1 - x0, 8));
      for (var gx = gs; gx < x1; gx += gs) {
        grid.appendChild(sv("line", { x1: X(gx), x2: X(gx), y1: T, y2: H - B }));
        ticks.appendChild(sv("text", { x: X(gx), y: H - B + 16, "text-anchor": "middle" }, String(gx)));
      }
    } else {
      var d0 = new Date(x0), d1 = new Date(x1);
      var months = (d1.getUTCFullYear() - d0.getUTCFullYear()) * 12 + d1.getUTCMonth() - d0.getUTCMonth() + 1;
      var every = [1, 2, 3, 6, 12, 24, 60].filter(function (s) { return months / s <= 8; })[0] || 60;
      for (var m = Date.UTC(d0.getUTCFullYear(), d0.getUTCMonth() + 1, 1); m <= x1; ) {
        var d = new Date(m), k = d.getUTCFullYear() * 12 + d.getUTCMonth();
        if (k % every === 0) {
          grid.appendChild(sv("line", { x1: X(m), x2: X(m), y1: T, y2: H - B }));
          ticks.appendChild(sv("text", { x: X(m), y: H - B + 16, "text-anchor": "middle" }, MONTHS[d.getUTCMonth()] + " " + d.getUTCFullYear()));
        }
        m = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      }
    }
    svg.appendChild(grid);
    svg.appendChild(sv("rect", { "class": "axes", x: L, y: T, width: W - L - R, height: H - T - B }));
    svg.appendChild(ticks);
    svg.appendChild(sv("text", { "class": "ylabel", transform: "translate(14 " + (T + H - B) / 2 + ") rotate(-90)", "text-anchor": "middle" }, ylabel));
    svg.appendChild(sv("polyline", { "class": "line", points: pts.map(function (p) { return X(p[0]).toFixed(1) + "," + Y(p[1]).toFixed(1); }).join(" ") }));
    var marks = sv("g", { "class": "marks" });
    pts.forEach(function (p) { marks.appendChild(sv("circle", { cx: X(p[0]).toFixed(1), cy: Y(p[1]).toFixed(1), r: 3.5 })); });
    svg.appendChild(marks);
    fig.insertBefore(svg, fig.firstChild);
  }

  var CARD_HEAD = ["Date", "Tournament", "Start", "Games", "Score", "Opp. avg", "D", "Expected", "K", "Exact", "Change", "After", "Note"];

  function isoDay(d) { return d ? new Date(d * 864e5).toISOString().slice(0, 10) : ""; }
  function text(v, prec) { return v === null ? "" : prec ? v.toFixed(prec) : String(v); }
  function signed(n) { return n > 0 ? "+" + n : n < 0 ? "\u2212" + (-n) : "0"; }

  // cardTable draws the rating card from its rows (see appendCard in pages.go).
  function cardTable(sec, rows) {
    var wrap = el("div", { "class": "scroll" }), table = el("table", { "class": "list card" });
    var head = el("tr"), thead = el("thead"), tb = el("tbody");
    CARD_HEAD.forEach(function (h) { head.appendChild(el("th", { scope: "col" }, h)); });
    thead.appendChild(head);
    rows.forEach(function (r) {
      var tr = el("tr"), td = el("td");
      tr.appendChild(el("td", {}, isoDay(r[0])));
      if (r[1]) td.appendChild(el("a", { href: "../tournaments/" + r[1] + ".html" }, r[2]));
      else td.textContent = r[2];
      tr.appendChild(td);
      for (var i = 3; i < 13; i++) {
        var v = r[i], c = el("td", {}, i === 8 ? text(v, 3) : i === 10 ? text(v, 2) : i === 11 && v !== null ? signed(v) : text(v));
        if (i === 11 && v) c.className = v > 0 ? "up" : "down";
        tr.appendChild(c);
      }
      tr.appendChild(el("td", {}, r[13]));
      tb.appendChild(tr);
    });
    table.appendChild(thead);
    table.appendChild(tb);
    wrap.appendChild(table);
    sec.appendChild(wrap);
  }

  // The player page: the card, the chart from the card's dates and ratings
  // after, then a block of games per tournament of the card.
  function playerPage() {
    var jfig = document.getElementById("jchart");
    if (jfig) chart(jfig, jfig.getAttribute("data-v").split(",").map(function (v, i) { return [i + 1, +v]; }), jfig.getAttribute("data-y"), true);
    var sec = document.getElementById("card");
    if (!sec) return;
    var rows = JSON.parse(sec.querySelector("script").textContent);
    cardTable(sec, rows);
    var fig = document.getElementById("chart");
    if (fig) {
      var pts = [];
      rows.forEach(function (r) { if (r[0] && r[12] !== null) pts.push([r[0] * 864e5, r[12]]); });
      if (pts.length) chart(fig, pts, fig.getAttribute("data-y"));
    }
    var games = document.getElementById("games");
    var me = +games.getAttribute("data-p");
    rows.forEach(function (r) {
      if (!r[1]) return;
      var box = el("details", { open: "", "class": "games" });
      box.appendChild(el("summary", {}, isoDay(r[0]) + " \u00b7 " + r[2] + " \u00b7 " + r[5] + "/" + r[4]));
      games.appendChild(box);
      loadTour(r[1], "../tournaments/", gamesTable.bind(null, box, me));
    });
  }

  // gamesTable fills box with player me's games in t, or drops it when t
  // has none of them.
  function gamesTable(box, me, t) {
    var n = -1;
    if (t && t.g) for (var i = 0; i < t.p.length; i++) if (t.p[i][0] === me) n = i;
    if (n < 0) { box.remove(); return; }
    var table = el("table", { "class": "compact" });
    table.innerHTML = '<thead><tr><th scope="col" class="n">Round</th><th scope="col">Colour</th><th scope="col">Opponent</th><th scope="col" class="n">Opp. rating</th><th scope="col" class="c">Result</th></tr></thead>';
    var tb = el("tbody");
    eachGame(t, function (round, w, b, wr, br) {
      var white = w === n;
      if (!white && b !== n) return;
      var opp = white ? b : w, tr = el("tr");
      tr.appendChild(el("td", { "class": "n" }, round));
      tr.appendChild(el("td", {}, opp < 0 ? "" : white ? "white" : "black"));
      var td = el("td"), o = t.p[opp];
      if (opp < 0) td.textContent = "bye";
      else if (o[3]) td.appendChild(el("a", { href: o[0] + ".html" }, o[1]));
      else td.textContent = o[1];
      tr.appendChild(td);
      tr.appendChild(el("td", { "class": "n" }, opp < 0 ? "" : o[2] !== null ? o[2] : t.rt ? "unrated" : ""));
      tr.appendChild(el("td", { "class": "c" }, white ? wr : br));
      tb.appendChild(tr);
    });
    table.appendChild(tb);
    box.appendChild(table);
  }

  // eachGame calls fn(round, white, black, white's result, black's result)
  // for every game of t.
  function eachGame(t, fn) {
    var g = t.g, rs = t.rs;
    for (var i = 0; i + 4 < g.length; i += 5) fn(g[i], g[i + 1], g[i + 2], rs[g[i + 3]] || "", rs[g[i + 4]] || "");
  }

  function playerCell(p, tag) {
    var c = el(tag, { scope: "row" });
    if (p[3]) c.appendChild(el("a", { href: "../players/" + p[0] + ".html" }, p[1]));
    else c.textContent = p[1];
    return c;
  }

  // standings draws the standings table: the columns of the standings file,
  // tiebreaks headed by their codes.
  function standings(sec, t) {
    var NAMES = { rank: "Rank", start_no: "No.", name: "Name", points: "Points" };
    var wrap = el("div", { "class": "scroll" }), table = el("table", { "class": "list auto st" });
    var head = el("tr");
    t.sh.forEach(function (h) {
      var th = el("th", { scope: "col", "class": h === "name" ? "" : "n" });
      if (NAMES[h]) th.textContent = NAMES[h]; else th.appendChild(el("abbr", {}, h));
      head.appendChild(th);
    });
    var thead = el("thead"), tb = el("tbody");
    thead.appendChild(head);
    t.sr.forEach(function (r) {
      var tr = el("tr");
      r.forEach(function (v, i) {
        tr.appendChild(t.sh[i] === "name" ? playerCell(t.p[v], "th") : el("td", {}, v));
      });
      tb.appendChild(tr);
    });
    table.appendChild(thead);
    table.appendChild(tb);
    wrap.appendChild(table);
    sec.appendChild(wrap);
  }

  // The tournament page: the standings and the crosstable from the page's
  // data file.
  function tourPage() {
    var all = window.RLT || {}, t;
    for (var k in all) t = all[k];
    if (!t) return;
    var st = document.getElementById("standings");
    if (st && t.sr) standings(st, t);
    var sec = document.getElementById("cross");
    if (sec && t.g) crosstable(sec, t);
  }

  // crosstable draws a grid for a small round robin, else each round's
  // opponent number, colour and result.
  function crosstable(sec, t) {
    var n = t.p.length, cells = [], titles = [], pts = [];
    for (var i = 0; i < n; i++) {
      cells.push(new Array(t.x ? n : t.r).fill(""));
      titles.push(new Array(t.x ? n : t.r).fill(""));
      pts.push(0);
    }
    function put(me, opp, round, color, res) {
      pts[me] += half(res);
      var title = opp < 0 ? "Round " + round + ": bye, " + res :
        "Round " + round + ": " + t.p[me][1] + " with " + color + " against " + t.p[opp][1] + ", " + res;
      if (t.x) {
        if (opp < 0) return;
        var k = opp;
        cells[me][k] += (cells[me][k] ? " " : "") + res;
        titles[me][k] += (titles[me][k] ? "; " : "") + title;
        return;
      }
      if (round < 1 || round > t.r) return;
      cells[me][round - 1] = opp < 0 ? "bye " + res : (opp + 1) + color[0] + " " + res;
      titles[me][round - 1] = title;
    }
    eachGame(t, function (round, w, b, wr, br) {
      if (w >= 0) put(w, b, round, "white", wr);
      if (b >= 0) put(b, w, round, "black", br);
    });
    var wrap = el("div", { "class": "scroll" }), table = el("table", { "class": "list cross auto" });
    table.appendChild(el("caption", { "class": "sr" }, t.x ?
      "Each row shows one player's results against the players numbered in the columns." :
      "Each round shows the opponent's number, colour (w or b) and the result."));
    var head = el("tr");
    head.appendChild(el("th", { scope: "col", "class": "n" }, "No."));
    head.appendChild(el("th", { scope: "col" }, "Name"));
    head.appendChild(el("th", { scope: "col", "class": "n" }, "Rating"));
    for (var c = 1; c <= (t.x ? n : t.r); c++) head.appendChild(el("th", { scope: "col", "class": "c" }, (t.x ? "" : "R") + c));
    head.appendChild(el("th", { scope: "col", "class": "n" }, "Pts"));
    var thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var tb = el("tbody");
    for (var r = 0; r < n; r++) {
      var p = t.p[r], tr = el("tr");
      if (t.x) { cells[r][r] = "\u25a0"; titles[r][r] = ""; }
      tr.appendChild(el("td", { "class": "n" }, r + 1));
      tr.appendChild(playerCell(p, "th"));
      tr.appendChild(el("td", { "class": "n" }, p[2] !== null ? p[2] : ""));
      for (var k = 0; k < cells[r].length; k++) {
        var td = el("td", { "class": "c" }, cells[r][k]);
        if (titles[r][k]) td.title = titles[r][k];
        tr.appendChild(td);
      }
      tr.appendChild(el("td", { "class": "n strong" }, halfText(pts[r])));
      tb.appendChild(tr);
    }
    table.appendChild(tb);
    wrap.appendChild(table);
    sec.appendChild(wrap);
  }

  playerPage();
  tourPage();
})();
