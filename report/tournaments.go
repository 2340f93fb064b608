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

// writeTournaments writes the page and data file of every tournament whose
// key changed. Over an earlier site the pairings of those tournaments were
// held as the keys were read; the others in the archive (all, in a first
// build) come as the archive is rated again, and those without pairings
// after; wait is called before the archive is rated. The pages are rendered
// and written by a pool, from a copy of the pairings, so that the archive goes
// on reading meanwhile.
func (s *site) writeTournaments(ctx context.Context, wait func()) (rerated int, err error) {
	pairKeys, held, err := s.readPairKeys(ctx)
	if err != nil {
		return 0, err
	}
	keys := map[int64]uint64{}
	var k keyer
	for _, id := range s.torder {
		t := s.tours[id]
		key := s.tourKey(&k, t, pairKeys[id])
		html, data := tourPage(id), fmt.Sprintf("tournaments/%d.js", id)
		if s.out.kept(html, key) {
			s.out.kept(data, key) // the same key has the same files
			if s.hasRatingReport(t) {
				s.out.kept(ratingPage(id), key)
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
			for j := range jobs {
				page, data, err := s.renderTournament(j.t, j.tt, j.st)
				if err != nil {
					return err
				}
				key := keys[j.t.ID]
				if err := s.out.put(tourPage(j.t.ID), page, key); err != nil {
					return err
				}
				if data != nil {
					if err := s.out.put(fmt.Sprintf("tournaments/%d.js", j.t.ID), data, key); err != nil {
						return err
					}
				}
				if s.hasRatingReport(j.t) {
					if err := s.out.put(ratingPage(j.t.ID), s.renderRatingReport(j.t, j.tt), key); err != nil {
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
const heldFiles = 3

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
	if len(c.held) == heldFiles {
		c.held = c.held[1:]
	}
	c.held = append(c.held, heldStandings{label, st})
	return st[id], nil
}

// renderTournament returns tournament t's page and its data file, from which
// site.js draws the standings and the crosstable, and the players' pages
// their games. tt is nil when the pairings are unknown, st when the standings
// are; the page has no data file when both are.
func (s *site) renderTournament(t *tourInfo, tt *tiebreak.Tournament, st *standings) (page, data []byte, err error) {
	b := appendHead(make([]byte, 0, 4<<10), s.page(t.Name, "../", "tournaments"))
	b = append(b, "<p class=\"crumb\"><a href=\"../"...)
	b = append(b, tourListFile(t.Period)...)
	b = append(b, "\">Tournaments</a>"...)
	if t.Period != "" {
		b = append(b, " › "...)
		b = appendEsc(b, t.Period)
	}
	b = append(b, "</p>\n<h1>"...)
	b = appendEsc(b, t.Name)
	b = append(b, "</h1>\n<dl class=\"facts\">\n"...)
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
		b = append(b, "<p><a href=\""...)
		b = strconv.AppendInt(b, t.ID, 10)
		b = append(b, "-rating.html\">Rating report</a>: every player's rating before, opponents, score, expected score, K and change.</p>\n"...)
	}
	if st != nil {
		b = append(b, "<section aria-labelledby=\"st-h\" id=\"standings\">\n<h2 id=\"st-h\">Final standings</h2>\n<noscript><p class=\"muted\">Turn on JavaScript to see the standings.</p></noscript>\n</section>\n<p class=\"muted small\">Tiebreak columns are headed by their FIDE codes, in the order they break ties.</p>\n"...)
	}
	if tt != nil {
		b = append(b, "<section aria-labelledby=\"x-h\" id=\"cross\">\n<h2 id=\"x-h\">Crosstable</h2>\n<noscript><p class=\"muted\">Turn on JavaScript to see the crosstable.</p></noscript>\n</section>\n"...)
	}
	if st != nil || tt != nil {
		b = append(b, "<script src=\""...)
		b = strconv.AppendInt(b, t.ID, 10)
		b = append(b, ".js\"></script>\n<script src=\"../assets/site.js\"></script>\n"...)
		data = s.tourData(t, tt, st)
	}
	return appendFoot(b), data, nil
}

func titleCase(s string) string {
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// tourData is a tournament's data file: a script that stores the tournament
// in window.RLT[ID] as compact JSON:
//
//	id  the tournament; rt: rated (1 or 0); x: crosstable as a round-robin grid; r: rounds
//	p   players, those of the standings first and in their order: [id, name, rating or null, has a page]
//	sh  the standings columns but player_id; sr: the standings rows, the name as the index into p
//	rs  the result texts; g: games, five numbers each: round, white, black (indexes into p, -1 for none)
//	    and the white's and black's results (indexes into rs)
func (s *site) tourData(t *tourInfo, tt *tiebreak.Tournament, st *standings) []byte {
	var players []tiebreak.Player
	if tt != nil {
		players = tt.Players
	}
	type entry struct {
		id   int64
		name string
	}
	var p []entry
	at := map[int64]int{}
	add := func(id int64, name string) int {
		if i, ok := at[id]; ok {
			return i
		}
		at[id] = len(p)
		p = append(p, entry{id, name})
		return len(p) - 1
	}
	nameCol := -1
	if st != nil {
		for i, h := range st.Header {
			if h == "name" {
				nameCol = i
			}
		}
		for k, r := range st.Rows {
			add(st.rowID(r, k), field(r, nameCol))
		}
	}
	pos := make([]int, len(players))
	for i, pl := range players {
		pos[i] = add(pl.ID, pl.Name)
	}
	rounds := 0
	if tt != nil {
		rounds = tt.Rounds
		for _, g := range tt.Games {
			rounds = max(rounds, g.Round)
		}
	}
	b := make([]byte, 0, 48*len(p)+12*rounds*len(players)/2+256)
	b = append(b, "(window.RLT=window.RLT||{})["...)
	b = strconv.AppendInt(b, t.ID, 10)
	b = append(b, "]={\"rt\":"...)
	b = appendBool(b, t.Rated)
	b = append(b, ",\"x\":"...)
	b = appendBool(b, isRoundRobin(t.System) && len(players) <= 24)
	b = append(b, ",\"r\":"...)
	b = strconv.AppendInt(b, int64(rounds), 10)
	b = append(b, ",\"p\":["...)
	for k, e := range p {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, e.id, 10)
		b = append(b, ',')
		b = appendJSONString(b, e.name)
		b = append(b, ',')
		if c := s.cardOf(t.ID, e.id); c != nil && c.Ro() != none {
			b = strconv.AppendInt(b, int64(c.Ro()), 10)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, ',')
		b = appendBool(b, s.hasPage(e.id))
		b = append(b, ']')
	}
	b = append(b, ']')
	if st != nil {
		b = append(b, ",\"sh\":["...)
		first := true
		for _, h := range st.Header {
			if h == "player_id" {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendJSONString(b, h)
		}
		b = append(b, "],\"sr\":["...)
		for k, r := range st.Rows {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			first := true
			for i, h := range st.Header {
				if h == "player_id" {
					continue
				}
				if !first {
					b = append(b, ',')
				}
				first = false
				if i == nameCol {
					b = strconv.AppendInt(b, int64(at[st.rowID(r, k)]), 10)
				} else {
					b = appendCell(b, field(r, i))
				}
			}
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	if tt != nil {
		var texts []string
		code := map[string]int{}
		res := func(c byte) int64 {
			r := resultText(c)
			i, ok := code[r]
			if !ok {
				i = len(texts)
				code[r] = i
				texts = append(texts, r)
			}
			return int64(i)
		}
		idx := func(p int) int64 {
			if p < 0 {
				return -1
			}
			return int64(pos[p])
		}
		var g []byte
		for k, gm := range tt.Games {
			if k > 0 {
				g = append(g, ',')
			}
			wr, br := res(gm.WhiteResult), int64(-1)
			if gm.Black >= 0 {
				br = res(gm.BlackResult)
			}
			if gm.White < 0 {
				wr = -1
			}
			g = appendInts(g, int64(gm.Round), idx(gm.White), idx(gm.Black), wr, br)
		}
		b = append(b, ",\"rs\":["...)
		for i, r := range texts {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, r)
		}
		b = append(b, "],\"g\":["...)
		b = append(b, g...)
		b = append(b, ']')
	}
	return append(b, "};\n"...)
}

// resultText shows a result code: 1, ½, 0, + and − for forfeits.
func resultText(c byte) string {
	switch c {
	case '1', 'W', 'w', 'F', 'f', 'U', 'u':
		return "1"
	case '=', 'D', 'd', 'H', 'h':
		return "½"
	case '0', 'L', 'l', 'Z', 'z':
		return "0"
	case '+':
		return "+"
	case '-':
		return "−"
	}
	return string(c)
}

// appendCell appends a standings cell: a number as itself when JavaScript
// prints it back the same, else a string.
func appendCell(b []byte, v string) []byte {
	if f, err := strconv.ParseFloat(v, 64); err == nil && strconv.FormatFloat(f, 'f', -1, 64) == v {
		return append(b, v...)
	}
	return appendJSONString(b, v)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, '1')
	}
	return append(b, '0')
}

func isRoundRobin(system string) bool {
	s := strings.ToLower(system)
	return strings.Contains(s, "round") || s == "rr" || s == "berger"
}
