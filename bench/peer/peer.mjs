// Rates every played game of a ratelist games.csv with @echecs/elo (FIDE Elo,
// game by game), in file order, and prints games/s: once for reading + rating,
// once for the rating loop alone. Usage: node peer.mjs ARCHIVE/games.csv
import { readFileSync } from "node:fs";
import { update } from "@echecs/elo";

const t0 = process.hrtime.bigint();
const text = readFileSync(process.argv[2], "utf8");
const lines = text.split("\n");
const head = lines[0].split(",");
const iw = head.indexOf("white_id"), ib = head.indexOf("black_id"), ir = head.indexOf("white_result");
const white = [], black = [], score = [];
for (let i = 1; i < lines.length; i++) {
  const f = lines[i].split(",");
  if (f.length < 6 || f[ib] === "") continue;
  const r = f[ir];
  const s = r === "1" ? 1 : r === "0" ? 0 : r === "=" ? 0.5 : -1;
  if (s < 0) continue; // forfeits and byes are not rated
  white.push(+f[iw]); black.push(+f[ib]); score.push(s);
}
const t1 = process.hrtime.bigint();
const rating = new Map();
for (let i = 0; i < white.length; i++) {
  const a = rating.get(white[i]) ?? 1500, b = rating.get(black[i]) ?? 1500;
  const [na, nb] = update(a, b, score[i]);
  rating.set(white[i], na); rating.set(black[i], nb);
}
const t2 = process.hrtime.bigint();
const n = white.length;
const s = (x) => Number(x) / 1e9;
console.log(JSON.stringify({ games: n, players: rating.size, read_and_rate_s: s(t2 - t0), rate_s: s(t2 - t1),
  games_per_s: Math.round(n / s(t2 - t0)), rate_games_per_s: Math.round(n / s(t2 - t1)) }));
