package officer

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/importer"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/pipeline"
	"github.com/ratelist/ratelist/tiebreak"
	"github.com/ratelist/ratelist/trf"
)

// RateOptions are the inputs of RateTRF beyond the file.
type RateOptions struct {
	Rules     pipeline.Rules
	RulesName string
	// List is FIDE's players list (TXT or XML), "" for none: its standard
	// ratings replace the file's, as `import fide-list` does.
	List string
	// Date is the start date of a file that gives none (042, 132); zero for
	// none.
	Date time.Time
	// Scratch is the folder the run's archive and outputs are made in and
	// removed from ("" is the system's temporary folder).
	Scratch string
}

// RatePlayer is one player's rating figures for the tournament, as the run's
// card gives them. Ro is nil for a player unrated when it started; for him
// Games, Score and OppAverage are those of the games toward an initial
// rating (his pool) and New the initial rating when the run gave one.
type RatePlayer struct {
	StartNo         int      `json:"start_rank"`
	Name            string   `json:"name"`
	FideID          int64    `json:"fide_id,omitempty"`
	Ro              *int32   `json:"ro"`
	K               *int32   `json:"k"`
	Games           int32    `json:"games"`
	OppRated        int      `json:"opponents_rated"`
	OppUnrated      int      `json:"opponents_unrated"`
	Score           float64  `json:"score"`
	OppAverage      *int32   `json:"opponents_average"`
	We              *float64 `json:"we"`
	ChangeUnrounded *float64 `json:"change_unrounded"`
	Change          int32    `json:"change"`
	New             *int32   `json:"new_rating"`
	// Reason is the card's reason, or why the player has none.
	Reason string `json:"reason"`
}

// UnratedGame is one player's round that rated nothing for him, and why.
type UnratedGame struct {
	StartNo  int    `json:"start_rank"`
	Round    int    `json:"round"`
	Opponent int    `json:"opponent"` // starting rank; 0 for a bye
	Result   string `json:"result"`
	Why      string `json:"why"`
}

// RateReport is what RateTRF found.
type RateReport struct {
	File       string        `json:"file"`
	Tournament string        `json:"tournament"`
	End        string        `json:"end_date"`
	Rules      string        `json:"rules"`
	List       string        `json:"list"` // the run's list that took the tournament
	Players    []RatePlayer  `json:"players"`
	NotRated   []UnratedGame `json:"not_rated"`
	// Notes are what the import and the run noted (rows rejected among them).
	Notes []string `json:"notes"`
}

// Why a round rated nothing.
const (
	whyBye        = "bye"
	whyForfeit    = "forfeit"
	whyUnplayed   = "no result"
	whyNotRated   = "played, marked not rated (W/D/L)"
	whyOppUnrated = "opponent unrated"
	whyUnrated    = "player unrated: toward an initial rating"
	// noPool is an unrated player without a card: no game against a rated
	// player, unless rounds finds some (a pool too small for a rating).
	noPool = "unrated: no game against a rated player"
)

// RateTRF rates one TRF file as a run holding only its tournament does, and
// reads each player's numbers back from that run's cards:
//
//  1. Import the file into an empty archive in a scratch folder (as `import
//     trf` does: FIDE ratings, birth years, dates), then FIDE's list when
//     opt.List names one (as `import fide-list` does).
//  2. Run the pipeline on it with opt.Rules, as of 100 days after the
//     tournament's end, so that the list that takes it is closed.
//  3. Read the cards (cards.parquet) and the first list: Ro, K, n, W, We and
//     the change of every player, an unrated player's pool when the run
//     computed no rating for him.
//  4. Go through the file's rounds: each one that rated nothing, and why.
func RateTRF(ctx context.Context, file string, opt RateOptions) (*RateReport, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	f, err := trf.Read(bytes.NewReader(data), file)
	if err != nil {
		return nil, err
	}
	t, err := f.Tournament()
	if err != nil {
		return nil, err
	}
	scratch, err := os.MkdirTemp(opt.Scratch, "ratelist-rate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	rep := &RateReport{File: file, Tournament: cmp.Or(t.Name, filepath.Base(file)), Rules: opt.RulesName}
	dir, out := filepath.Join(scratch, "archive"), filepath.Join(scratch, "out")
	end, err := importOne(ctx, dir, file, f, opt, rep)
	if err != nil {
		return nil, err
	}
	rep.End = end.Format(time.DateOnly)
	sum, err := pipeline.Run(ctx, pipeline.Options{
		Archive: os.DirFS(dir), ArchiveName: file, Out: out, Rules: opt.Rules, RulesName: opt.RulesName,
		Workers: 1, StandingsCSV: pipeline.StandingsCSVNone, Now: end.AddDate(0, 0, 100),
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Version: "rate",
	})
	if err != nil {
		return nil, fmt.Errorf("rate %s: %w", file, err)
	}
	if sum.RowsRejected > 0 {
		rep.Notes = append(rep.Notes, rejected(out)...)
	}
	if err := rep.fill(out, f, t); err != nil {
		return nil, err
	}
	if rep.NotRated == nil {
		rep.NotRated = []UnratedGame{}
	}
	if rep.Notes == nil {
		rep.Notes = []string{}
	}
	return rep, nil
}

// importOne imports f (read from file) into a new archive in dir, and FIDE's
// list when opt.List names one, and returns the tournament's end date. The
// archive's player_id of the i-th player of f is i + 1: each record of a new
// archive's only file is a new player, a namesake too.
func importOne(ctx context.Context, dir, file string, f *trf.File, opt RateOptions, rep *RateReport) (time.Time, error) {
	iopt := importer.Options{Name: cmp.Or(strings.TrimSpace(f.Name), filepath.Base(file)), Date: opt.Date, ForRating: true}
	a, err := importer.Open(dir, iopt)
	if err != nil {
		return time.Time{}, err
	}
	defer a.Abort()
	st, err := importer.ImportTRF(ctx, a, []string{file}, iopt)
	if err != nil {
		return time.Time{}, err
	}
	for _, n := range st.Notes {
		rep.Notes = append(rep.Notes, n.Error())
	}
	if len(st.Problems) > 0 {
		return time.Time{}, st.Problems[0]
	}
	if st.Tournaments != 1 {
		return time.Time{}, fmt.Errorf("%s: no games to rate", file)
	}
	if len(a.Players) != len(f.Players) {
		return time.Time{}, fmt.Errorf("%s: %d players imported for %d records", file, len(a.Players), len(f.Players))
	}
	if opt.List != "" {
		lst, err := importer.ImportFideList(ctx, a, []string{opt.List}, importer.FideListOptions{})
		if err != nil {
			return time.Time{}, fmt.Errorf("read --list %s: %w", opt.List, err)
		}
		rep.Notes = append(rep.Notes, fmt.Sprintf("%s: %d of the file's players found, %d ratings taken", opt.List, lst.Matched, lst.Updated["fide_rating"]))
	}
	end := a.Tournaments[0].EndDate
	if _, err := a.Commit(); err != nil {
		return time.Time{}, err
	}
	return day.Day(end).Time(), nil
}

// rejected are the rows of out's rejects.csv, one line each.
func rejected(out string) []string {
	data, err := os.ReadFile(filepath.Join(out, "rejects.csv"))
	if err != nil {
		return []string{"rows rejected; rejects.csv unreadable: " + err.Error()}
	}
	rows, _ := csv.NewReader(bytes.NewReader(data)).ReadAll()
	var notes []string
	for i, r := range rows {
		if i > 0 {
			notes = append(notes, "rejected: "+strings.Join(r, ", "))
		}
	}
	return notes
}

// fill reads the players' figures from the run in out, and the rounds that
// rated nothing from t (f's tournament, players in f's order).
func (rep *RateReport) fill(out string, f *trf.File, t *tiebreak.Tournament) error {
	cards, err := ReadCards(out, func(*output.Card) bool { return true })
	if err != nil {
		return err
	}
	card := map[int64]*output.Card{} // the player's first card: there is one tournament
	for i := range cards {
		c := &cards[i]
		if card[c.PlayerID] == nil {
			card[c.PlayerID] = c
			rep.List = cmp.Or(rep.List, c.Period)
		}
	}
	periods, err := Periods(out)
	if err != nil {
		return err
	}
	if rep.List == "" && len(periods) > 0 {
		rep.List = periods[len(periods)-1] // no card: the last list is the one that took the tournament
	}
	// The first list is the rule set's starting list when it comes before the
	// list that took the tournament (FIDE's): Ro of a rated player without games.
	before := map[int64]int32{}
	if len(periods) > 0 && periods[0] < rep.List {
		rows, err := ReadList(out, periods[0])
		if err != nil {
			return err
		}
		for _, r := range rows {
			before[r.PlayerID] = r.Rating
		}
	}
	rep.Players = make([]RatePlayer, len(f.Players))
	for i, p := range f.Players {
		rp := RatePlayer{StartNo: p.StartNo, Name: p.Name, FideID: p.FideID}
		if c := card[int64(i+1)]; c != nil {
			rp.Ro, rp.K, rp.Games, rp.Score = cmp.Or(c.RatingUsed, c.RatingBefore), c.K, c.Games, c.Score
			rp.OppAverage, rp.We, rp.ChangeUnrounded, rp.Change = c.OppAverage, c.Expected, c.ChangeUnrounded, c.Change
			rp.New, rp.Reason = c.RatingAfter, c.Reason
		} else if r, ok := before[int64(i+1)]; ok {
			rp.Ro, rp.New, rp.Reason = &r, &r, "no rated game"
		} else {
			rp.Reason = noPool
		}
		rep.Players[i] = rp
	}
	rep.rounds(t)
	return nil
}

// rounds counts each player's opponents with and without Ro, fills the pool
// of an unrated player the run computed nothing for, and lists every round
// that rated nothing for its player.
func (rep *RateReport) rounds(t *tiebreak.Tournament) {
	sum := make([]int64, len(rep.Players)) // opponents' Ro in an unrated player's pool
	side := func(g tiebreak.Game, me, opp int, res byte) {
		p := &rep.Players[me]
		why := ""
		switch {
		case opp < 0:
			why = whyBye
		case res == '+' || res == '-':
			why = whyForfeit
		case res == 'W' || res == 'D' || res == 'L':
			why = whyNotRated
		case res != '1' && res != '=' && res != '0':
			why = whyUnplayed
		case rep.Players[opp].Ro == nil:
			p.OppUnrated++
			why = whyOppUnrated
		default:
			p.OppRated++
			if p.Ro == nil {
				why = whyUnrated
				sum[me] += int64(*rep.Players[opp].Ro)
			}
		}
		if why != "" {
			u := UnratedGame{StartNo: p.StartNo, Round: g.Round, Result: string(res), Why: why}
			if opp >= 0 {
				u.Opponent = rep.Players[opp].StartNo
			}
			rep.NotRated = append(rep.NotRated, u)
		}
	}
	for _, g := range t.Games {
		side(g, g.White, g.Black, g.WhiteResult)
		if g.Black >= 0 {
			side(g, g.Black, g.White, g.BlackResult)
		}
	}
	for i := range rep.Players {
		p := &rep.Players[i]
		if p.Ro != nil || p.Reason != noPool || p.OppRated == 0 {
			continue
		}
		p.Reason, p.Games = "unrated: pool below an initial rating", int32(p.OppRated)
		avg := int32((sum[i] + int64(p.OppRated)/2) / int64(p.OppRated))
		p.OppAverage = &avg
		p.Score = poolScore(t, i, rep.Players)
	}
	sortUnrated(rep.NotRated)
}

// poolScore is player i's score over the board against opponents with Ro.
func poolScore(t *tiebreak.Tournament, i int, ps []RatePlayer) float64 {
	score := 0.0
	add := func(res byte) {
		switch res {
		case '1':
			score++
		case '=':
			score += 0.5
		}
	}
	for _, g := range t.Games {
		switch {
		case g.Black < 0:
		case g.White == i && ps[g.Black].Ro != nil:
			add(g.WhiteResult)
		case g.Black == i && ps[g.White].Ro != nil:
			add(g.BlackResult)
		}
	}
	return score
}

// sortUnrated orders the rounds by player, then round.
func sortUnrated(us []UnratedGame) {
	slices.SortStableFunc(us, func(a, b UnratedGame) int {
		return cmp.Or(cmp.Compare(a.StartNo, b.StartNo), cmp.Compare(a.Round, b.Round))
	})
}

var rateHeader = []string{"start_rank", "name", "fide_id", "ro", "k", "games", "opponents_rated", "opponents_unrated", "score",
	"opponents_average", "we", "change_unrounded", "change", "new_rating", "reason"}

// Tables are the report as two tables: the players, and the rounds that
// rated nothing.
func (rep *RateReport) Tables() (players, notRated Table) {
	players = Table{Title: fmt.Sprintf("%s, ended %s, rules %s, list %s: %d players", rep.Tournament, rep.End, rep.Rules, rep.List, len(rep.Players)),
		Header: rateHeader}
	for _, p := range rep.Players {
		id := ""
		if p.FideID != 0 {
			id = itoa(p.FideID)
		}
		players.Rows = append(players.Rows, []string{itoa(p.StartNo), p.Name, id, i32(p.Ro), i32(p.K), itoa(p.Games), itoa(p.OppRated), itoa(p.OppUnrated),
			num(p.Score), i32(p.OppAverage), f64(p.We), f64(p.ChangeUnrounded), itoa(p.Change), i32(p.New), p.Reason})
	}
	notRated = Table{Title: "Games not rated", Header: []string{"start_rank", "round", "opponent", "result", "why"}}
	for _, u := range rep.NotRated {
		opp := ""
		if u.Opponent != 0 {
			opp = strconv.Itoa(u.Opponent)
		}
		notRated.Rows = append(notRated.Rows, []string{itoa(u.StartNo), itoa(u.Round), opp, u.Result, u.Why})
	}
	return players, notRated
}
