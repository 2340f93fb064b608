package report

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ratelist/ratelist/pipeline"
	"github.com/ratelist/ratelist/tiebreak"
	"golang.org/x/sync/errgroup"
)

// tourPage is the page of tournament id.
func tourPage(id int64) string { return fmt.Sprintf("tournaments/%d.html", id) }

// writeTournaments writes the page of every tournament whose key changed. Over an earlier site the pairings of those tournaments were
// held as the keys were read; the others in the archive (all, in a first
// build) come as the archive is rated again, and those without pairings
// after; wait is called before the archive is rated. The pages are rendered
// and written by a pool, from a copy of the pairings, so that the archive goes
// on reading meanwhile.
func (s *site) writeTournaments(ctx context.Context, wait func()) (rerated int, err error) {
	pairKeys, tourKeys, held, err := s.readPairKeys(ctx)
	if err != nil {
		return 0, err
	}
	keys := map[int64]uint64{}
	var k keyer
	for _, id := range s.torder {
		t := s.tours[id]
		key, ok := tourKeys[id]
		if !ok {
			key = s.tourKey(&k, t, pairKeys[id])
		}
		if s.out.kept(tourPage(id), key) {
			if s.hasRatingReport(t) {
				s.out.kept(ratingPage(id), key) // the same key has the same files
			}
			continue
		}
		keys[id] = key
	}
	want := func(id int64) bool { _, ok := keys[id]; return ok }
	stc := &standingsCache{out: s.opt.Out, files: s.stFile, want: want}
	g, gctx := errgroup.WithContext(ctx)
	type job struct {
		t  *tourInfo
		tt *tiebreak.Tournament
		st *standings
	}
	jobs := make(chan job, 64)
	for range s.opt.Workers {
		g.Go(func() error {
			var b []byte // the worker's page buffer: put keeps none of it
			for j := range jobs {
				b = s.renderTournament(b[:0], j.t, j.tt, j.st)
				if err := s.out.put(tourPage(j.t.ID), b, keys[j.t.ID]); err != nil {
					return err
				}
				if s.hasRatingReport(j.t) {
					b = s.renderRatingReport(b[:0], j.t, j.tt)
					if err := s.out.put(ratingPage(j.t.ID), b, keys[j.t.ID]); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
	send := func(j job) error {
		select {
		case jobs <- j:
			return nil
		case <-gctx.Done():
			return gctx.Err()
		}
	}
	sendStandings := func(j job) error {
		st, err := stc.get(j.t.ID)
		if err != nil {
			return err
		}
		j.st = st
		return send(j)
	}
	err = func() error {
		defer close(jobs)
		// The tournaments in the games table whose pairings must come from
		// rating the archive again.
		again := map[int64]bool{}
		for _, id := range s.torder {
			if _, ok := pairKeys[id]; !ok || !want(id) {
				continue
			}
			if held == nil {
				again[id] = true
				continue
			}
			tt, ok := held.Tournament(id)
			if tt == nil {
				if !ok {
					again[id] = true
				}
				continue
			}
			st, err := stc.get(id)
			if err != nil {
				return err
			}
			// The held players are in id order, a run's by rating: the data
			// file is the same when the standings list every player first.
			if !standsAll(st, tt) {
				again[id] = true
				continue
			}
			t := s.tours[id]
			t.Paired = true
			if err := send(job{t: t, tt: tt, st: st}); err != nil {
				return err
			}
		}
		if len(again) > 0 && s.opt.Archive != nil {
			rerated = len(again)
			wait()
			err := pipeline.ForEachTournamentOfFS(gctx, s.opt.Archive, func(id int64) bool { return again[id] }, func(tt *tiebreak.Tournament) error {
				t := s.tours[tt.ID]
				if t == nil || t.Paired {
					return nil
				}
				t.Paired = true
				return sendStandings(job{t: t, tt: &tiebreak.Tournament{Rounds: tt.Rounds, Players: slices.Clone(tt.Players), Games: slices.Clone(tt.Games)}})
			})
			if err != nil {
				return fmt.Errorf("archive: %w", err)
			}
		}
		for _, id := range s.torder {
			if t := s.tours[id]; want(id) && !t.Paired {
				if err := sendStandings(job{t: t}); err != nil {
					return err
				}
			}
		}
		return nil
	}()
	if werr := g.Wait(); err == nil {
		err = werr
	}
	return rerated, err
}

// standsAll says whether the standings st list every player of tt.
func standsAll(st *standings, tt *tiebreak.Tournament) bool {
	if st == nil {
		return false
	}
	ids := make(map[int64]bool, len(st.Rows))
	for k, r := range st.Rows {
		ids[st.rowID(r, k)] = true
	}
	for _, p := range tt.Players {
		if !ids[p.ID] {
			return false
		}
	}
	return true
}

// standingsCache reads the standings of the tournaments being rendered a
// period's file at a time, as they come (in rating order, so by period),
// and holds the last few files' only.
type standingsCache struct {
	out   string           // the run's output folder
	files map[int64]string // each tournament's file, by label
	want  func(int64) bool
	held  []heldStandings
}

type heldStandings struct {
	label string
	st    map[int64]*standings
}

// heldFiles is how many periods' standings are held: tournaments of
// neighbouring periods may come interleaved.
const heldFiles = 2

// get returns tournament id's standings, nil when it has none.
func (c *standingsCache) get(id int64) (*standings, error) {
	label, ok := c.files[id]
	if !ok {
		return nil, nil
	}
	for _, h := range c.held {
		if h.label == label {
			return h.st[id], nil
		}
	}
	st, err := readStandings(c.out, []string{label}, c.want)
	if err != nil {
		return nil, err
	}
	if len(c.held) == heldFiles { // shifted in place: a resliced array would hold the dropped file
		c.held = c.held[:copy(c.held, c.held[1:])]
	}
	c.held = append(c.held, heldStandings{label, st})
	return st[id], nil
}

// renderTournament appends to b tournament t's page: its facts and one table, the
// standings as officers print them with each round's opponent, colour and
// result (for a small round robin, a grid of results). tt is nil when the
// pairings are unknown, st when the standings are.
func (s *site) renderTournament(b []byte, t *tourInfo, tt *tiebreak.Tournament, st *standings) []byte {
	var tb *tourTable
	if st != nil || tt != nil {
		tb = s.newTourTable(t, tt, st)
	}
	p := s.page(t.Name, "../", "tournaments")
	p.Base, p.Self = "players/", "../"+tourPage(t.ID) // the standings link each player
	if tb != nil {
		p.Style = tb.style
	}
	b = appendHead(b, p)
	b = append(b, "<p class=crumb><a href=../"...)
	b = append(b, tourListFile(t.Period)...)
	b = append(b, ">Tournaments</a>"...)
	if t.Period != "" {
		b = append(b, " › "...)
		b = appendEsc(b, t.Period)
	}
	b = append(b, "</p>\n<h1>"...)
	b = appendEsc(b, t.Name)
	b = append(b, "</h1>\n<dl class=facts>\n"...)
	if t.Start != 0 {
		d := appendDate(nil, t.Start)
		if t.End != t.Start {
			d = appendDate(append(d, " – "...), t.End)
		}
		b = appendFact(b, "Dates", string(d))
	}
	if t.Discipline != "" {
		b = appendFact(b, "Discipline", titleCase(t.Discipline))
	}
	if t.System != "" {
		b = appendFact(b, "System", t.System)
	}
	if t.Rounds != 0 {
		b = appendFact(b, "Rounds", strconv.Itoa(t.Rounds))
	}
	if t.Rated {
		b = appendFact(b, "Rated", "yes")
	} else {
		b = appendFact(b, "Rated", "no")
	}
	if tt != nil {
		b = appendFact(b, "Players", strconv.Itoa(len(tt.Players)))
	}
	b = append(b, "</dl>\n"...)
	if s.hasRatingReport(t) {
		b = append(b, "<p><a href=../"...)
		b = append(b, ratingPage(t.ID)...)
		b = append(b, ">Rating report</a>: every player's rating before, opponents, score, expected score, K and change.</p>\n"...)
	}
	b = s.appendTeamLink(b, t.ID)
	if tb != nil {
		b = append(b, "<h2 id=standings>Final standings</h2>\n"...)
		b = tb.appendTable(b)
	}
	return appendFoot(b)
}

func titleCase(s string) string {
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func isRoundRobin(system string) bool {
	s := strings.ToLower(system)
	return strings.Contains(s, "round") || s == "rr" || s == "berger"
}
