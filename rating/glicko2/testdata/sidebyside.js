// Rates the periods given on standard input with two published Glicko-2
// implementations and prints every listed player's values after each period.
//
// Usage: node sidebyside.js NODE_MODULES < input.json
//
// input.json: {"settings": {"tau", "initial_rating", "initial_rd",
// "initial_volatility"}, "periods": [[[white, black, whiteScore], ...], ...]}
// (players are numbers; black's score is 1 − white's).
//
// Output: {"glicko2": periods, "lite": periods}, each period a list of
// [player, r, rd, volatility] in player order.
//
// glicko2 (mmai/glicko2js) keeps every player it has met and applies step 6
// alone to those without games in a period; its volatility iteration stops at
// 1e-7. glicko2-lite rates one player's period and has no step for a player
// without games, so this script applies step 6 itself for them (φ′ = √(φ² + σ²)
// on the Glicko-2 scale); its iteration stops at 1e-6.
"use strict";
const path = require("path");
const modules = process.argv[2];
const { Glicko2 } = require(path.join(modules, "glicko2"));
const lite = require(path.join(modules, "glicko2-lite"));

const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const s = input.settings;
const scale = 173.7178;

// glicko2js: players are made at the start of the period of their first game.
const ranking = new Glicko2({ tau: s.tau, rating: s.initial_rating, rd: s.initial_rd, vol: s.initial_volatility });
const players = new Map();
const js = input.periods.map((games) => {
  for (const [w, b] of games) {
    for (const p of [w, b]) {
      if (!players.has(p)) players.set(p, ranking.makePlayer(s.initial_rating, s.initial_rd, s.initial_volatility));
    }
  }
  ranking.updateRatings(games.map(([w, b, score]) => [players.get(w), players.get(b), score]));
  return [...players.keys()].sort((a, b) => a - b).map((p) => {
    const pl = players.get(p);
    return [p, pl.getRating(), pl.getRd(), pl.getVol()];
  });
});

// glicko2-lite: one call per player with games, from the period's start.
const state = new Map(); // player → [r, rd, vol]
const lt = input.periods.map((games) => {
  const opponents = new Map();
  const start = (p) => state.get(p) || [s.initial_rating, s.initial_rd, s.initial_volatility];
  for (const [w, b, score] of games) {
    const [wv, bv] = [start(w), start(b)];
    if (!opponents.has(w)) opponents.set(w, []);
    if (!opponents.has(b)) opponents.set(b, []);
    opponents.get(w).push([bv[0], bv[1], score]);
    opponents.get(b).push([wv[0], wv[1], 1 - score]);
  }
  const next = new Map();
  for (const [p, v] of state) {
    if (!opponents.has(p)) {
      const phi = v[1] / scale;
      next.set(p, [v[0], scale * Math.sqrt(phi * phi + v[2] * v[2]), v[2]]);
    }
  }
  for (const [p, opps] of opponents) {
    const v = start(p);
    const r = lite(v[0], v[1], v[2], opps, { rating: s.initial_rating, tau: s.tau });
    next.set(p, [r.rating, r.rd, r.vol]);
  }
  for (const [p, v] of next) state.set(p, v);
  return [...state.keys()].sort((a, b) => a - b).map((p) => [p, ...state.get(p)]);
});

process.stdout.write(JSON.stringify({ glicko2: js, lite: lt }));
