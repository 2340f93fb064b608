package trf

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/ratelist/ratelist/tiebreak"
)

// Version is the TRF version Write writes.
type Version string

// The versions Write writes. Both have the same 001 records; TRF-2026 names the
// number of rounds in 142 (TRF16 in JaVaFo's XXR), codes a round robin's type in
// 192 and lists the tournament's tiebreaks in 202.
const (
	TRF16 Version = "trf16"
	TRF26 Version = "trf26"
)

// ParseVersion reads "trf16" or "trf26".
func ParseVersion(s string) (Version, error) {
	switch v := Version(strings.ToLower(s)); v {
	case TRF16, TRF26:
		return v, nil
	}
	return "", fmt.Errorf("%q is neither trf16 nor trf26", s)
}

// PlayerInfo is what a 001 record says of a player beyond the tournament's own
// data: all optional, blank when empty.
type PlayerInfo struct {
	Sex        string // m or w
	Title      string // GM, IM, WGM, FM, …
	Federation string // three letters
	FideID     int64
	Birth      string // YYYY/MM/DD, or YYYY alone
}

// ErrNotWritable is a tournament TRF cannot carry as it is.
var ErrNotWritable = errors.New("tournament cannot be written as TRF")

// Write writes t as a TRF file: header records, then one 001 record per player
// in starting-rank order with his points and rank (by the standings with codes)
// and one round triple per round. info, when not nil, holds each player's
// PlayerInfo by index into t.Players. A game's White writes colour w, Black b;
// a bye writes opponent 0000, colour -; a round without a game (a rest round,
// an absence) is left blank, which TRF reads as Z. Only chess is written: game points
// (Scrabble) have no TRF field, and a point system or adjustments other than the
// standard ones are refused rather than written wrong.
func Write(w io.Writer, t *tiebreak.Tournament, info []PlayerInfo, codes []string, v Version) error {
	return write(w, t, nil, info, codes, v)
}

// WriteTeams writes the team competition tt as Write writes tt.Tournament, with
// its teams after the players: TRF16 013 records (the name in columns 5–36, cut
// to 32 characters, then the starting ranks by board in 37–40, 42–45, …, 0 for
// an empty place), or TRF-2026 310 records (number, name, starting ranks from
// column 74), 300 records for the rounds' board orders and 320 records for the
// declared pairing-allocated byes and their points (TRF16 has no record for
// either). The 092 record names the team system ("Team Swiss", "Team round
// robin"), or none ("Team competition") when tt.System is empty, so a reader
// infers it from the matches again.
func WriteTeams(w io.Writer, tt *tiebreak.TeamTournament, info []PlayerInfo, codes []string, v Version) error {
	return write(w, tt.Tournament, tt, info, codes, v)
}

// write is Write, with tt's team records when tt is not nil.
func write(w io.Writer, t *tiebreak.Tournament, tt *tiebreak.TeamTournament, info []PlayerInfo, codes []string, v Version) error {
	if err := writable(t, info); err != nil {
		return err
	}
	var teams []string
	if tt != nil {
		var err error
		if teams, err = teamRecords(tt, v); err != nil {
			return err
		}
	}
	rows, err := tiebreak.Standings(t, codes, tiebreak.Options{})
	if err != nil {
		return fmt.Errorf("standings: %w", err)
	}
	points, rank := make([]float64, len(t.Players)), make([]int, len(t.Players))
	for _, r := range rows {
		points[r.Index], rank[r.Index] = r.Points, r.Rank
	}
	rounds := t.Rounds
	for _, g := range t.Games {
		rounds = max(rounds, g.Round)
	}
	triples := make([][]string, len(t.Players))
	for i := range triples {
		triples[i] = make([]string, rounds)
	}
	for _, g := range t.Games {
		if g.Black < 0 {
			triples[g.White][g.Round-1] = fmt.Sprintf("0000 - %c", g.WhiteResult)
			continue
		}
		triples[g.White][g.Round-1] = fmt.Sprintf("%4d w %c", t.Players[g.Black].StartNo, g.WhiteResult)
		triples[g.Black][g.Round-1] = fmt.Sprintf("%4d b %c", t.Players[g.White].StartNo, g.BlackResult)
	}

	bw := bufio.NewWriter(w)
	for _, h := range header(t, tt != nil, rounds, v) {
		fmt.Fprintf(bw, "%s\n", h)
	}
	for _, i := range byStartNo(t) {
		var pi PlayerInfo
		if info != nil {
			pi = info[i]
		}
		fmt.Fprintf(bw, "%s\n", playerRecord(t.Players[i], pi, points[i], rank[i], triples[i]))
	}
	for _, r := range teams {
		fmt.Fprintf(bw, "%s\n", r)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write TRF: %w", err)
	}
	return nil
}

// writable refuses what TRF would carry wrong or not at all.
func writable(t *tiebreak.Tournament, info []PlayerInfo) error {
	if d := t.Discipline; d != "" && !strings.EqualFold(d, "chess") {
		return fmt.Errorf("discipline %s: TRF holds chess games only: %w", d, ErrNotWritable)
	}
	if (t.Points != nil && *t.Points != tiebreak.StandardPoints()) || len(t.Adjustments) > 0 {
		return fmt.Errorf("a point system or adjustments the writer does not write: %w", ErrNotWritable)
	}
	if info != nil && len(info) != len(t.Players) {
		return fmt.Errorf("%d player infos for %d players: %w", len(info), len(t.Players), ErrNotWritable)
	}
	seen := make(map[int]bool, len(t.Players))
	for _, p := range t.Players {
		if p.StartNo < 1 || p.StartNo > 9999 || seen[p.StartNo] {
			return fmt.Errorf("starting rank %d of %q: not unique in 1–9999: %w", p.StartNo, p.Name, ErrNotWritable)
		}
		seen[p.StartNo] = true
		if p.Rating < 0 || p.Rating > 9999 {
			return fmt.Errorf("rating %d of %q does not fit four columns: %w", p.Rating, p.Name, ErrNotWritable)
		}
	}
	for _, g := range t.Games {
		if g.Round < 1 || g.Round > 999 {
			return fmt.Errorf("a game in round %d: rounds run 1–999: %w", g.Round, ErrNotWritable)
		}
	}
	return nil
}

// header is the header records in the order TRF lists them; a team
// competition's 092 names the team system, or none.
func header(t *tiebreak.Tournament, team bool, rounds int, v Version) []string {
	h := []string{"012 " + t.Name}
	if !t.Start.IsZero() {
		h = append(h, "042 "+t.Start.Format("2006/01/02"))
	}
	if !t.End.IsZero() {
		h = append(h, "052 "+t.End.Format("2006/01/02"))
	}
	h = append(h, "062 "+strconv.Itoa(len(t.Players)))
	rr := tiebreak.IsRoundRobin(t.System)
	switch {
	case team && rr:
		h = append(h, "092 Team round robin")
	case team && namedSystem(t.System) == "swiss":
		h = append(h, "092 Team Swiss")
	case team:
		h = append(h, "092 Team competition")
	case rr:
		h = append(h, "092 Round robin")
	default:
		h = append(h, "092 Swiss system")
	}
	if v == TRF26 {
		h = append(h, "142 "+strconv.Itoa(rounds))
		if rr {
			h = append(h, "192 FIDE_ROUNDROBIN")
		}
		if strings.TrimSpace(t.Tiebreaks) != "" {
			h = append(h, "202 "+strings.Join(tiebreak.SplitCodes(t.Tiebreaks), ","))
		}
		return h
	}
	return append(h, "XXR "+strconv.Itoa(rounds))
}

// byStartNo is the player indexes in starting-rank order.
func byStartNo(t *tiebreak.Tournament) []int {
	idx := make([]int, len(t.Players))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(t.Players[a].StartNo, t.Players[b].StartNo) })
	return idx
}

// playerRecord is a 001 record, its fields at the columns the reader reads them
// from (counted in characters).
func playerRecord(p tiebreak.Player, pi PlayerInfo, points float64, rank int, triples []string) string {
	line := []rune(strings.Repeat(" ", 89+10*len(triples)))
	put := func(col, width int, s string, right bool) {
		rs := []rune(s)
		if len(rs) > width {
			rs = rs[:width]
		}
		at := col - 1
		if right {
			at += width - len(rs)
		}
		copy(line[at:], rs)
	}
	put(1, 3, "001", false)
	put(5, 4, strconv.Itoa(p.StartNo), true)
	put(10, 1, pi.Sex, false)
	put(11, 3, pi.Title, true)
	put(15, 33, p.Name, false)
	if p.Rating > 0 {
		put(49, 4, strconv.Itoa(p.Rating), true)
	}
	put(54, 3, pi.Federation, false)
	if pi.FideID > 0 {
		put(58, 11, strconv.FormatInt(pi.FideID, 10), true)
	}
	put(70, 10, pi.Birth, false)
	pts := strconv.FormatFloat(points, 'f', 1, 64)
	if len(pts) > 4 {
		pts = strconv.FormatFloat(points, 'f', 0, 64) // 100 points and more: no room for the decimal
	}
	put(81, 4, pts, true)
	if rank > 0 {
		put(86, 4, strconv.Itoa(rank), true)
	}
	for r, tr := range triples {
		put(92+10*r, 8, tr, false) // a round without a game stays blank
	}
	return strings.TrimRight(string(line), " ")
}

// teamRecords is tt's team records: 013 (TRF16) or 310 (TRF-2026) in team order,
// then, in TRF-2026, a 300 record per board order and the 320 records.
func teamRecords(tt *tiebreak.TeamTournament, v Version) ([]string, error) {
	sno := func(i int) int {
		if i < 0 || i >= len(tt.Tournament.Players) {
			return 0
		}
		return tt.Tournament.Players[i].StartNo
	}
	var out []string
	for _, team := range tt.Teams {
		if v == TRF26 && (team.Number < 1 || team.Number > 999) {
			return nil, fmt.Errorf("team number %d does not fit three columns: %w", team.Number, ErrNotWritable)
		}
		var b strings.Builder
		if v == TRF26 {
			fmt.Fprintf(&b, "310 %3d %s", team.Number, padTo(team.Name, 32))
			b.WriteString(strings.Repeat(" ", 33))
			for _, p := range team.Players {
				fmt.Fprintf(&b, "%4d ", sno(p))
			}
		} else {
			b.WriteString("013 " + padTo(team.Name, 32))
			for k, p := range team.Players {
				if k > 0 {
					b.WriteByte(' ')
				}
				fmt.Fprintf(&b, "%4d", sno(p))
			}
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	if v != TRF26 {
		return out, nil
	}
	ms, err := tiebreak.Matches(tt)
	if err != nil {
		return nil, fmt.Errorf("team matches: %w", err)
	}
	for _, o := range tt.Orders {
		opp := 0
		if o.Team >= 0 && o.Team < len(ms) && o.Round >= 1 && o.Round <= len(ms[o.Team]) && ms[o.Team][o.Round-1].Opp >= 0 {
			opp = tt.Teams[ms[o.Team][o.Round-1].Opp].Number
		}
		var b strings.Builder
		fmt.Fprintf(&b, "300 %3d %3d %3d", o.Round, tt.Teams[o.Team].Number, opp)
		for _, p := range o.Players {
			fmt.Fprintf(&b, " %4d", sno(p))
		}
		out = append(out, b.String())
	}
	return append(out, teamByeRecords(tt)...), nil
}

// teamByeRecords is the 320 records of tt's declared byes at tt.Points' bye
// points: the k-th record names the k-th team with a bye in each round (one
// record unless two teams had one in a round).
func teamByeRecords(tt *tiebreak.TeamTournament) []string {
	if len(tt.Byes) == 0 {
		return nil
	}
	pts := tiebreak.StandardTeamPoints()
	if tt.Points != nil {
		pts = *tt.Points
	}
	var layers [][]int // layer → round − 1 → team number
	for _, b := range tt.Byes {
		if b.Code != 'U' || b.Team < 0 || b.Team >= len(tt.Teams) || b.Round < 1 {
			continue
		}
		k := 0
		for k < len(layers) && b.Round <= len(layers[k]) && layers[k][b.Round-1] != 0 {
			k++
		}
		if k == len(layers) {
			layers = append(layers, nil)
		}
		for len(layers[k]) < b.Round {
			layers[k] = append(layers[k], 0)
		}
		layers[k][b.Round-1] = tt.Teams[b.Team].Number
	}
	var out []string
	for _, l := range layers {
		var b strings.Builder
		fmt.Fprintf(&b, "320 %4.1f %4.1f", float64(pts.PAB)/2, float64(pts.PABGame)/2)
		for _, n := range l {
			fmt.Fprintf(&b, " %3d", n)
		}
		out = append(out, b.String())
	}
	return out
}

// padTo is s cut or padded with blanks to n characters.
func padTo(s string, n int) string {
	rs := []rune(s)
	if len(rs) > n {
		rs = rs[:n]
	}
	return string(rs) + strings.Repeat(" ", n-len(rs))
}
