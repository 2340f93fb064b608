package trf

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ratelist/ratelist/tiebreak"
)

// Severity is how much a finding matters to the file's upload.
type Severity int

// The severities: an Error is what FIDE's rating server would refuse or rate
// wrongly, a Warning what is ambiguous or wrong in a field rating does not use,
// a Note how the file was read.
const (
	Note Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}

// MarshalText writes the severity as its name (JSON).
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Finding is one problem of a TRF file: where (Line and Column 1-based, the
// column counted in characters), a stable code, how much it matters, what it is
// and how to fix it, each in a line.
type Finding struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	Message  string   `json:"message"`
	Fix      string   `json:"fix"`
}

func (f Finding) String() string {
	return fmt.Sprintf("%s:%d:%d: %s %s: %s", f.File, f.Line, f.Column, f.Severity, f.Code, f.Message)
}

// ListPlayer is a player of FIDE's players list, for CheckOptions.List.
type ListPlayer struct {
	Name       string
	Federation string
	BirthYear  int
	Rating     int // standard; 0 = unrated
}

// CheckOptions are the inputs of Check beyond the file.
type CheckOptions struct {
	// List is FIDE's players list by FIDE id (at least the file's ids); nil
	// skips the list checks.
	List map[int64]ListPlayer
}

// Check reads a TRF file with Read and returns every finding, by line and
// column:
//
//  1. The records as written (checkRecords): the 001 fields in the columns
//     TRF16 gives them, the header records rating needs, 062/072/082 against the
//     records, duplicate starting ranks, the team records.
//  2. A file Read refuses is one error more, and the checks stop there.
//  3. The file as read: the reader's notes, the mirrored pairings, colours and
//     byes per round, the team matches (one opposing team a round, boards in
//     list order, a 310 record's points), the points column against the results (with the byes the
//     reader reads from writers' conventions), ranks against points, duplicate
//     names and FIDE ids, 042/052 and 132's round dates, the number of rounds,
//     and FIDE's list.
func Check(data []byte, fileName string, opt CheckOptions) []Finding {
	lines := textLines(data)
	var out []Finding
	add := func(fs ...Finding) { out = append(out, fs...) }
	add(checkRecords(fileName, lines)...)
	f, err := Read(bytes.NewReader(data), fileName)
	if err != nil {
		add(readFinding(fileName, err, out))
		return sortFindings(out, len(lines))
	}
	scores := f.scores()
	add(f.readerNotes()...)
	add(f.checkPairings()...)
	add(f.checkTeamMatches()...)
	add(f.checkPoints(scores)...)
	add(f.checkRanks(scores)...)
	add(f.checkIdentities()...)
	add(f.checkDates(lines, headerLines(lines))...)
	add(f.checkRounds(headerLines(lines))...)
	if opt.List != nil {
		add(f.checkList(opt.List)...)
	}
	return sortFindings(out, len(lines))
}

// textLines are the file's lines as Read reads them, decoded.
func textLines(data []byte) []string {
	text, _ := decodeText(data)
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 0, 4096), max(len(text)+1, 4096)) // every line, even one Read refuses as too long
	sc.Split(scanLines)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// sortFindings orders findings by line, column and code, each line within the
// file's n lines (line 1 for an empty file).
func sortFindings(fs []Finding, n int) []Finding {
	for i := range fs {
		fs[i].Line = min(max(fs[i].Line, 1), max(n, 1))
		fs[i].Column = max(fs[i].Column, 1)
	}
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), cmp.Compare(a.Code, b.Code))
	})
	return slices.CompactFunc(fs, func(a, b Finding) bool { return a == b })
}

// readFinding is the error Read refused the file with, unless checkRecords
// already found it.
func readFinding(file string, err error, found []Finding) Finding {
	fd := Finding{File: file, Severity: Error, Code: "TRF-READ", Message: err.Error(), Fix: "correct the record; the other checks run once the file reads"}
	var se *SyntaxError
	if !errors.As(err, &se) {
		return fd
	}
	fd.Line, fd.Column, fd.Message = se.Line, se.Column, se.Err.Error()
	switch {
	case errors.Is(err, ErrDuplicatePlayer):
		fd.Code = "TRF-DUP-START"
	case errors.Is(err, ErrField):
		fd.Code = "TRF-FIELD"
	case errors.Is(err, ErrNoPlayers):
		fd.Code, fd.Fix = "TRF-NO-PLAYERS", "add the players' 001 records"
	case errors.Is(err, ErrPairing), errors.Is(err, ErrUnknownOpponent):
		fd.Code = "TRF-MIRROR"
	}
	for _, g := range found {
		if g.Line == fd.Line && g.Code == fd.Code {
			return g
		}
	}
	return fd
}

// headers are the lines of the header records checkDates and checkRounds
// name, by record code (the first of each).
type headers map[string]int

func headerLines(lines []string) headers {
	h := headers{}
	for i, l := range lines {
		if len(l) >= 3 {
			code := strings.ToUpper(l[:3])
			if _, seen := h[code]; !seen {
				h[code] = i + 1
			}
		}
	}
	return h
}

// checkRecords checks the records as written, line by line.
func checkRecords(file string, lines []string) []Finding {
	var out []Finding
	at := func(line, col int, sev Severity, code, fix, format string, args ...any) {
		out = append(out, Finding{File: file, Line: line, Column: col, Severity: sev, Code: code, Message: fmt.Sprintf(format, args...), Fix: fix})
	}
	starts := map[int]int{} // starting rank → line
	var players []Player
	var teams []Team
	counts := map[string][2]int{} // 062, 072, 082 → value, line
	seen := map[string]bool{}
	for i, l := range lines {
		line := i + 1
		rs := []rune(l)
		if len(rs) < 3 || strings.TrimSpace(l) == "" {
			continue
		}
		code := strings.ToUpper(string(rs[:3]))
		seen[code] = seen[code] || strings.TrimSpace(cols(rs, 5, len(rs))) != ""
		switch code {
		case "001":
			var perr error
			p, err := parsePlayer(rs, func(col int, format string, args ...any) error {
				perr = &SyntaxError{File: file, Line: line, Column: col, Err: fmt.Errorf(format+": %w", append(args, ErrField)...)}
				return perr
			})
			if err != nil {
				var se *SyntaxError
				errors.As(perr, &se)
				at(line, se.Column, Error, "TRF-FIELD", "write the field in the columns TRF16 gives it (001: starting rank 5–8, rating 49–52, FIDE id 58–68, points 81–84, rank 86–89, rounds from 92, ten columns each)", "%v", se.Err)
				continue
			}
			p.Line = line
			if prev, dup := starts[p.StartNo]; dup {
				at(line, 5, Error, "TRF-DUP-START", "give each player his own starting rank", "starting rank %d already on line %d", p.StartNo, prev)
				continue
			}
			starts[p.StartNo] = line
			players = append(players, p)
			out = append(out, playerFields(file, rs, p)...)
		case "062", "072", "082":
			s := strings.TrimSpace(cols(rs, 5, len(rs)))
			if n, err := strconv.Atoi(s); err == nil {
				counts[code] = [2]int{n, line}
			} else if s != "" {
				at(line, 5, Warning, "TRF-COUNT", "write a whole number", "%s %q is not a number", code, s)
			}
		case "013", "310":
			t := parseTeam(rs, line)
			if rs[0] == '0' {
				t.Number = len(teams) + 1
			}
			if t.err != nil {
				at(line, 1, Warning, "TRF-TEAM", "write the starting ranks in the team record's columns (013: 37–40, 42–45, …)", "team record not understood: %v", t.err)
				t.Players = nil
			}
			teams = append(teams, t)
		}
	}
	h := headerLines(lines)
	for _, r := range []struct{ code, name string }{{"012", "tournament name"}, {"022", "city"}, {"032", "federation"}, {"102", "chief arbiter"}} {
		switch {
		case seen[r.code] || len(players) == 0:
		case h[r.code] > 0:
			at(h[r.code], 5, Error, "TRF-HEADER", "write the "+r.name+" from column 5: TRF16 marks "+r.code+" mandatory for rating", "%s (%s) is empty", r.name, r.code)
		default:
			at(1, 1, Error, "TRF-HEADER", "add a "+r.code+" record: TRF16 marks it mandatory for rating", "no %s (%s)", r.name, r.code)
		}
	}
	rated := 0
	for _, p := range players {
		if p.Rating > 0 {
			rated++
		}
	}
	for _, c := range []struct {
		code, what string
		n          int
	}{{"062", "players (001 records)", len(players)}, {"072", "rated players (a rating in 49–52)", rated}, {"082", "teams (013 records)", len(teams)}} {
		if v, ok := counts[c.code]; ok && v[0] != c.n {
			at(v[1], 5, Warning, "TRF-COUNT", fmt.Sprintf("write %d in %s", c.n, c.code), "%s says %d, the file has %d %s", c.code, v[0], c.n, c.what)
		}
	}
	out = append(out, checkTeams(file, teams, starts)...)
	return out
}

// Separator columns of a 001 record that TRF16 leaves blank: a character there
// is a field that overran its columns.
var separators001 = []int{4, 9, 14, 48, 53, 57, 69, 80, 85, 90, 91}

// Titles TRF16 lists, and the one-letter codes some writers use.
var titles = map[string]bool{"GM": true, "IM": true, "WGM": true, "FM": true, "WIM": true, "CM": true, "WFM": true, "WCM": true,
	"G": true, "M": true, "F": true, "C": true, "WG": true, "WM": true, "WF": true, "WC": true}

// playerFields checks a 001 record's fields beyond what the reader needs.
func playerFields(file string, rs []rune, p Player) []Finding {
	var out []Finding
	at := func(col int, sev Severity, code, fix, format string, args ...any) {
		out = append(out, Finding{File: file, Line: p.Line, Column: col, Severity: sev, Code: code, Message: fmt.Sprintf(format, args...), Fix: fix})
	}
	seps := slices.Clone(separators001)
	for c := 92; c <= len(rs); c += 10 {
		seps = append(seps, c+4, c+6, c+8, c+9)
	}
	for _, c := range seps {
		if c <= len(rs) && rs[c-1] != ' ' {
			at(c, Error, "TRF-COLUMNS", "move the field back into its columns (TRF16 keeps this column blank)", "column %d holds %q: a field overran its columns", c, string(rs[c-1]))
			break
		}
	}
	if s := strings.ToLower(p.Sex); s != "" && s != "m" && s != "w" && s != "f" {
		at(10, Warning, "TRF-SEX", "write m or w in column 10", "sex %q", p.Sex)
	}
	if p.Title != "" && !titles[strings.ToUpper(p.Title)] {
		at(11, Warning, "TRF-TITLE", "write a FIDE title (GM IM WGM FM WIM CM WFM WCM) in 11–13, or leave it blank", "title %q", p.Title)
	}
	if fed := p.Federation; fed != "" && !isFederation(fed) {
		at(54, Warning, "TRF-FED", "write the player's three-letter FIDE federation in 54–56", "federation %q is not three capital letters", fed)
	}
	if p.FideID == 0 && strings.TrimSpace(cols(rs, 58, 68)) != "" {
		at(58, Note, "TRF-FIDE-ID", "leave 58–68 blank for a player without a FIDE id", "FIDE id 0")
	}
	if b := p.Birth; b != "" && !birthForm.MatchString(b) {
		at(70, Warning, "TRF-BIRTH", "write the birth date as YYYY/MM/DD (or YYYY/00/00), or leave it blank", "birth date %q is not YYYY/MM/DD", b)
	}
	if !p.HasPoints {
		at(81, Warning, "TRF-NO-POINTS", "write the player's points in 81–84 (ratelist check --fix does)", "no points in 81–84")
	}
	return out
}

// birthForm is TRF16's birth date, YYYY/MM/DD (00 for an unknown month or
// day), or the year alone.
var birthForm = regexp.MustCompile(`^\d{4}(/\d{2}/\d{2})?$`)

func isFederation(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, c := range s {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

// checkTeams checks the team records against the 001 records: every starting
// rank a team names is a player's, and a player is in one team only.
func checkTeams(file string, teams []Team, starts map[int]int) []Finding {
	var out []Finding
	in := map[int]int{} // starting rank → line of his team
	for _, t := range teams {
		for _, sno := range t.Players {
			switch prev, twice := in[sno]; {
			case sno == 0:
			case starts[sno] == 0:
				out = append(out, Finding{File: file, Line: t.Line, Column: 1, Severity: Warning, Code: "TRF-TEAM",
					Message: fmt.Sprintf("team %q names starting rank %d, who has no 001 record", t.Name, sno), Fix: "name the team's players by their starting ranks (001 columns 5–8)"})
			case twice:
				out = append(out, Finding{File: file, Line: t.Line, Column: 1, Severity: Warning, Code: "TRF-TEAM",
					Message: fmt.Sprintf("team %q names starting rank %d, already in the team of line %d", t.Name, sno, prev), Fix: "put each player in one team"})
			default:
				in[sno] = t.Line
			}
		}
	}
	return out
}

// scores are each player's points by the results as read (index as Players):
// his rounds scored by the point system, a round his opponent's record decides
// (his own is blank or Z) by that record, and the 299 adjustments.
func (f *File) scores() []int {
	system := tiebreak.StandardPoints()
	if f.Points != nil {
		system = *f.Points
	}
	claimed := f.claims()
	adjusted := map[int]int{}
	for _, a := range f.Adjustments {
		adjusted[a.StartNo] += a.Points
	}
	n := f.playedRounds()
	out := make([]int, len(f.Players))
	for i, p := range f.Players {
		score := adjusted[p.StartNo]
		for r := range n {
			rd := p.roundAt(r)
			c, isClaimed := claimed[[2]int{p.StartNo, r}]
			switch {
			case isClaimed && (rd.blank || rd.Opp != 0 && rd.Result == 'Z'):
				score += system.Score(c)
			case !rd.blank:
				score += system.Score(rd.Result)
			}
		}
		out[i] = score
	}
	return out
}

// claims are the results other records give a player: {starting rank, round
// (0-based)} → his result.
func (f *File) claims() map[[2]int]byte {
	claimed := map[[2]int]byte{}
	for _, p := range f.Players {
		for r, rd := range p.Rounds {
			if rd.Opp != 0 && rd.Result != 'Z' {
				claimed[[2]int{rd.Opp, r}] = tiebreak.OppositeResult(rd.Result)
			}
		}
	}
	return claimed
}

// readerNotes are what the reader noted: the encoding, dates, byes it read
// from the points column.
func (f *File) readerNotes() []Finding {
	var out []Finding
	for _, w := range f.Warnings {
		fd := Finding{File: w.File, Line: w.Line, Column: w.Column, Message: w.Err.Error()}
		switch {
		case errors.Is(w, ErrNotUTF8):
			fd.Severity, fd.Code, fd.Fix = Note, "TRF-ENCODING", "save the file as UTF-8"
		case errors.Is(w, ErrStartDate), errors.Is(w, ErrEndDate):
			fd.Severity, fd.Code, fd.Fix = Warning, "TRF-DATE", "write the date as YYYY/MM/DD, as TRF16's own dates are"
		case errors.Is(w, ErrAmbiguousDate):
			fd.Severity, fd.Code, fd.Fix = Note, "TRF-DATE", "write 042 and 052 as YYYY/MM/DD"
		default:
			continue // empty results and team records: checked on their own
		}
		out = append(out, fd)
	}
	for _, p := range f.Players {
		certain := p.certainByes(f.pointSystem())
		for r, rd := range p.Rounds {
			if !rd.implied {
				continue
			}
			fd := Finding{File: f.fileName, Line: p.Line, Column: 92 + 10*r, Severity: Warning, Code: "TRF-BYE-EMPTY",
				Message: fmt.Sprintf("starting rank %d, round %d: no result, which TRF16 reads as a zero-point bye; the points column makes it a %s", p.StartNo, r+1, byeName[rd.Result]),
				Fix:     fmt.Sprintf("write %q in columns %d–%d (ratelist check --fix does)", "0000 - "+string(rd.Result), 92+10*r, 99+10*r)}
			if _, ok := certain[r]; !ok {
				fd.Message += ", or other byes of his make the same points"
				fd.Fix = fmt.Sprintf("write the bye he had (e.g. %q) in columns %d–%d", "0000 - "+string(rd.Result), 92+10*r, 99+10*r)
			}
			out = append(out, fd)
		}
	}
	return out
}

var byeName = map[byte]string{'F': "full-point bye (F)", 'H': "half-point bye (H)", 'Z': "zero-point bye (Z)", 'U': "pairing-allocated bye (U)"}

// checkPairings checks each round against the opponent's record: the opponent
// exists, his record names this player back with the opposite colour and
// result, nobody is paired twice in a round; a pairing has colours, and a
// round has one pairing-allocated bye at most.
func (f *File) checkPairings() []Finding {
	var out []Finding
	at := func(p Player, r int, sev Severity, code, fix, format string, args ...any) {
		out = append(out, Finding{File: f.fileName, Line: p.Line, Column: 92 + 10*r, Severity: sev, Code: code,
			Message: fmt.Sprintf("starting rank %d, round %d: ", p.StartNo, r+1) + fmt.Sprintf(format, args...), Fix: fix})
	}
	pairedBy := map[[2]int][]int{} // {starting rank, round} → the records naming him
	for _, p := range f.Players {
		for r, rd := range p.Rounds {
			if rd.Opp != 0 {
				pairedBy[[2]int{rd.Opp, r}] = append(pairedBy[[2]int{rd.Opp, r}], p.StartNo)
			}
		}
	}
	pab := map[int][]int{} // round → starting ranks with U
	for _, p := range f.Players {
		for r, rd := range p.Rounds {
			if rd.Opp == 0 {
				if rd.Result == 'U' {
					pab[r] = append(pab[r], p.StartNo)
				}
				continue
			}
			q := f.player(rd.Opp)
			switch {
			case q == nil:
				at(p, r, Error, "TRF-OPPONENT", "write the opponent's starting rank (his 001 columns 5–8)", "opponent %d has no 001 record", rd.Opp)
				continue
			case q.StartNo == p.StartNo:
				at(p, r, Error, "TRF-MIRROR", "write the opponent's starting rank", "paired with himself")
				continue
			}
			if rd.Color == 0 {
				what := "a game"
				if !isPlayed(rd.Result) {
					what = "a forfeit or unplayed pairing"
				}
				at(p, r, Warning, "TRF-COLOUR", "write the colour the pairing gave (w or b) in column "+strconv.Itoa(97+10*r), "%s against %d without a colour", what, rd.Opp)
			}
			other := q.roundAt(r)
			switch {
			case other.Opp == p.StartNo:
				if p.StartNo > q.StartNo {
					continue // reported from the other record
				}
				switch {
				case rd.Result == 'Z' && other.Result == 'Z':
					at(p, r, Note, "TRF-NO-RESULT", "write the result, or leave both records unpaired if the game was not played", "paired with %d, no result on either record: no game", q.StartNo)
				case rd.Result == 'Z' || other.Result == 'Z':
				default:
					if why := mirror(rd, other); why != "" {
						at(p, r, Error, "TRF-MIRROR", "correct the result or colour on one of the two records", "%s, opponent %d's record (line %d) shows %s: %s", describe(rd), q.StartNo, q.Line, describe(other), why)
					}
				}
			case other.Opp != 0 && slices.Contains(pairedBy[[2]int{q.StartNo, r}], other.Opp) && len(pairedBy[[2]int{q.StartNo, r}]) > 1:
				at(p, r, Error, "TRF-DOUBLE", "pair each player once a round: correct the opponent on one record", "opponent %d is paired twice in this round: here and by %d (his own record names %d)", q.StartNo, other.Opp, other.Opp)
			case other.blank && rd.Result != 'Z':
				at(p, r, Error, "TRF-MIRROR-MISSING", fmt.Sprintf("write %q in round %d of starting rank %d (line %d; ratelist check --fix does)", mirrored(p.StartNo, rd), r+1, q.StartNo, q.Line), "%s, but opponent %d's record (line %d) has nothing in this round", describe(rd), q.StartNo, q.Line)
			case other.blank:
			default:
				at(p, r, Error, "TRF-MIRROR", "correct the opponent on one of the two records", "%s, but opponent %d's record (line %d) shows %s", describe(rd), q.StartNo, q.Line, describe(other))
			}
		}
	}
	for r, snos := range pab {
		if len(snos) > 1 {
			for _, sno := range snos[1:] {
				p := f.player(sno)
				at(*p, r, Warning, "TRF-PAB", "give a pairing-allocated bye (U) to one player a round; write H, F or Z for the others", "a second pairing-allocated bye (U) in this round (starting ranks %v)", snos)
			}
		}
	}
	return out
}

// mirrored is the round triple the opponent's record needs for rd of player sno.
func mirrored(sno int, rd Round) string {
	colour := map[byte]byte{'w': 'b', 'b': 'w', 0: '-'}[rd.Color]
	return fmt.Sprintf("%4d %c %c", sno, colour, tiebreak.OppositeResult(rd.Result))
}

// checkPoints compares each points column with the player's results.
func (f *File) checkPoints(scores []int) []Finding {
	var out []Finding
	for i, p := range f.Players {
		if !p.HasPoints {
			continue
		}
		if got := float64(scores[i]) / 2; got != p.Points {
			out = append(out, Finding{File: f.fileName, Line: p.Line, Column: 81, Severity: Error, Code: "TRF-POINTS",
				Message: fmt.Sprintf("starting rank %d: points column %s, his results make %s", p.StartNo, pointsText(p.Points), pointsText(got)),
				Fix:     fmt.Sprintf("write %s in columns 81–84, or correct the results (ratelist check --fix writes the points)", pointsText(got))})
		}
	}
	return out
}

func pointsText(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// checkRanks checks the rank column against the points: a player ranked below
// another has no more points (the points column, else his results).
func (f *File) checkRanks(scores []int) []Finding {
	var out []Finding
	type ranked struct {
		p      Player
		points float64
	}
	var rs []ranked
	missing := 0
	for i, p := range f.Players {
		pts := float64(scores[i]) / 2
		if p.HasPoints {
			pts = p.Points
		}
		if p.Rank <= 0 {
			missing++
			continue
		}
		rs = append(rs, ranked{p, pts})
	}
	switch {
	case len(rs) == 0:
		return []Finding{{File: f.fileName, Line: f.Players[0].Line, Column: 86, Severity: Warning, Code: "TRF-RANK",
			Message: "no player has a rank in 86–89", Fix: "write each player's rank in the final standings in columns 86–89"}}
	case missing > 0:
		for _, p := range f.Players {
			if p.Rank <= 0 {
				out = append(out, Finding{File: f.fileName, Line: p.Line, Column: 86, Severity: Warning, Code: "TRF-RANK",
					Message: fmt.Sprintf("starting rank %d has no rank, the others have", p.StartNo), Fix: "write his rank in the final standings in columns 86–89"})
			}
		}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int { return cmp.Compare(a.p.Rank, b.p.Rank) })
	codes, byStart, note := f.tiebreakRows()
	if note != nil {
		out = append(out, *note)
	}
	for k := 1; k < len(rs); k++ {
		prev, cur := rs[k-1], rs[k]
		switch {
		case cur.points > prev.points:
			out = append(out, Finding{File: f.fileName, Line: cur.p.Line, Column: 86, Severity: Warning, Code: "TRF-RANK",
				Message: fmt.Sprintf("rank %d with %s points, below rank %d (starting rank %d) with %s", cur.p.Rank, pointsText(cur.points), prev.p.Rank, prev.p.StartNo, pointsText(prev.points)),
				Fix:     "rank the players by points, then by the tournament's tiebreaks"})
		case cur.points == prev.points && byStart != nil && cur.p.Rank > prev.p.Rank:
			a, b := byStart[prev.p.StartNo], byStart[cur.p.StartNo]
			if a.Points != b.Points || b.Rank >= a.Rank {
				continue // the results' points differ (TRF-POINTS), or the tie-breaks agree
			}
			out = append(out, Finding{File: f.fileName, Line: cur.p.Line, Column: 86, Severity: Warning, Code: "TRF-RANK",
				Message: fmt.Sprintf("rank %d, below rank %d (starting rank %d) with the same %s points, but the tie-breaks %s put him ahead: %s",
					cur.p.Rank, prev.p.Rank, prev.p.StartNo, pointsText(cur.points), strings.Join(codes, ","), firstDifference(codes, b, a)),
				Fix: "rank the players with equal points by the tie-breaks the file names (202/212), or correct 202/212"})
		}
	}
	return out
}

// tiebreakRows are the standings by the tie-breaks the file names (202/212),
// by starting rank: nil without them, or with a note when they cannot be
// computed.
func (f *File) tiebreakRows() ([]string, map[int]tiebreak.Row, *Finding) {
	if strings.TrimSpace(f.Tiebreaks) == "" {
		return nil, nil, nil
	}
	codes := tiebreak.SplitCodes(f.Tiebreaks)
	note := func(err error) *Finding {
		return &Finding{File: f.fileName, Line: f.Players[0].Line, Column: 86, Severity: Note, Code: "TRF-RANK",
			Message: fmt.Sprintf("tie-breaks %q (202/212): %v: the order within equal points is not checked", f.Tiebreaks, err),
			Fix:     "name the tie-breaks by FIDE's codes (C.07), e.g. \"BH/C1,BH,SB\""}
	}
	if _, err := tiebreak.ParseCodes(f.Tiebreaks); err != nil {
		return nil, nil, note(err)
	}
	t, err := f.Tournament()
	if err != nil {
		return nil, nil, nil // the pairings' own findings say why
	}
	rows, err := tiebreak.Standings(t, codes, tiebreak.Options{})
	if err != nil {
		return nil, nil, note(err)
	}
	by := make(map[int]tiebreak.Row, len(rows))
	for _, r := range rows {
		by[r.Player.StartNo] = r
	}
	return codes, by, nil
}

// firstDifference names the first tie-break on which a and b differ, with
// both values.
func firstDifference(codes []string, a, b tiebreak.Row) string {
	for k, c := range codes {
		if va, vb := a.Values[k], b.Values[k]; va != vb {
			return fmt.Sprintf("%s %s against %s", c, tbValue(va), tbValue(vb))
		}
	}
	return "equal on every tie-break"
}

func tbValue(v tiebreak.Value) string {
	if !v.OK {
		return "none"
	}
	return strconv.FormatFloat(v.V, 'f', -1, 64)
}

// checkIdentities finds two records of one person: the same FIDE id, or the
// same name.
func (f *File) checkIdentities() []Finding {
	var out []Finding
	ids, names := map[int64]Player{}, map[string]Player{}
	for _, p := range f.Players {
		if prev, dup := ids[p.FideID]; dup && p.FideID != 0 {
			out = append(out, Finding{File: f.fileName, Line: p.Line, Column: 58, Severity: Error, Code: "TRF-DUP-ID",
				Message: fmt.Sprintf("FIDE id %d is also starting rank %d's (line %d)", p.FideID, prev.StartNo, prev.Line),
				Fix:     "one person plays under one starting rank: merge the two records, or correct the FIDE id"})
		} else if p.FideID != 0 {
			ids[p.FideID] = p
		}
		key := strings.ToLower(strings.Join(strings.Fields(p.Name), " "))
		if prev, dup := names[key]; dup && key != "" {
			out = append(out, Finding{File: f.fileName, Line: p.Line, Column: 15, Severity: Warning, Code: "TRF-DUP-NAME",
				Message: fmt.Sprintf("name %q is also starting rank %d's (line %d)", p.Name, prev.StartNo, prev.Line),
				Fix:     "if they are two people, tell them apart (FIDE ids, a middle name); if one, merge the records"})
		} else if key != "" {
			names[key] = p
		}
	}
	return out
}

// checkDates checks 042 before 052, and the round dates of 132: readable,
// in order, and within the start and end dates.
func (f *File) checkDates(lines []string, h headers) []Finding {
	var out []Finding
	if !f.Start.IsZero() && !f.End.IsZero() && f.End.Before(f.Start) {
		out = append(out, Finding{File: f.fileName, Line: h["052"], Column: 5, Severity: Error, Code: "TRF-DATES",
			Message: fmt.Sprintf("end date %s before the start date %s", f.End.Format(time.DateOnly), f.Start.Format(time.DateOnly)),
			Fix:     "correct 042 or 052 (YYYY/MM/DD)"})
	}
	line := h["132"]
	if line == 0 {
		return out
	}
	rs := []rune(lines[line-1])
	var prev time.Time
	dates := 0
	for c := 92; c <= len(rs); c += 10 {
		text := strings.TrimSpace(cols(rs, c, c+7))
		if text == "" {
			continue
		}
		dates++
		at := func(sev Severity, fix, format string, args ...any) {
			out = append(out, Finding{File: f.fileName, Line: line, Column: c, Severity: sev, Code: "TRF-ROUND-DATE", Message: fmt.Sprintf("round %d: ", (c-92)/10+1) + fmt.Sprintf(format, args...), Fix: fix})
		}
		ds := readings(text)
		if len(ds) == 0 {
			at(Warning, "write the round date as YY/MM/DD", "date %q not understood", text)
			continue
		}
		d := ds[0].t
		switch {
		case !f.Start.IsZero() && d.Before(f.Start), !f.End.IsZero() && d.After(f.End):
			at(Warning, "correct the round date or 042/052", "date %s outside the tournament's dates (%s to %s)", d.Format(time.DateOnly), f.Start.Format(time.DateOnly), f.End.Format(time.DateOnly))
		case !prev.IsZero() && d.Before(prev):
			at(Warning, "correct the round date", "date %s before the previous round's %s", d.Format(time.DateOnly), prev.Format(time.DateOnly))
		}
		prev = d
	}
	if rounds := max(f.Rounds, f.playedRounds()); dates != rounds {
		out = append(out, Finding{File: f.fileName, Line: line, Column: 92, Severity: Warning, Code: "TRF-ROUND-DATE",
			Message: fmt.Sprintf("%d round dates for %d rounds", dates, rounds), Fix: "write one date a round in 132 (round 1 at 92–99, round 2 at 102–109, …)"})
	}
	return out
}

// checkRounds checks the number of rounds of 142/XXR against the round
// columns the records fill.
func (f *File) checkRounds(h headers) []Finding {
	played := f.playedRounds()
	line := cmp.Or(h["142"], h["XXR"])
	switch {
	case f.Rounds == 0:
	case played > f.Rounds:
		return []Finding{{File: f.fileName, Line: line, Column: 5, Severity: Error, Code: "TRF-ROUNDS",
			Message: fmt.Sprintf("%d rounds declared, the 001 records fill %d", f.Rounds, played), Fix: fmt.Sprintf("write %d as the number of rounds", played)}}
	case played < f.Rounds:
		return []Finding{{File: f.fileName, Line: line, Column: 5, Severity: Note, Code: "TRF-ROUNDS",
			Message: fmt.Sprintf("%d rounds declared, the 001 records fill %d: the tournament is not finished", f.Rounds, played), Fix: "report the tournament once every round is played"}}
	}
	return nil
}

// checkList compares the players with FIDE's list: the id is in it, and the
// name, federation, birth year and rating are the list's.
func (f *File) checkList(list map[int64]ListPlayer) []Finding {
	var out []Finding
	for _, p := range f.Players {
		if p.FideID == 0 {
			continue
		}
		at := func(col int, code, fix, format string, args ...any) {
			out = append(out, Finding{File: f.fileName, Line: p.Line, Column: col, Severity: Warning, Code: code,
				Message: fmt.Sprintf("starting rank %d (FIDE id %d): ", p.StartNo, p.FideID) + fmt.Sprintf(format, args...), Fix: fix})
		}
		l, ok := list[p.FideID]
		if !ok {
			at(58, "TRF-LIST-ID", "correct the FIDE id, or leave it blank for a player without one", "not in FIDE's list")
			continue
		}
		if !sameName(p.Name, l.Name) {
			at(15, "TRF-LIST-NAME", "write the name as FIDE's list has it, or correct the FIDE id", "name %q, FIDE's list has %q", p.Name, l.Name)
		}
		if p.Federation != "" && l.Federation != "" && !strings.EqualFold(p.Federation, l.Federation) {
			at(54, "TRF-LIST-FED", "write the list's federation", "federation %s, FIDE's list has %s", p.Federation, l.Federation)
		}
		if y, err := strconv.Atoi(firstN(p.Birth, 4)); err == nil && l.BirthYear != 0 && y != l.BirthYear {
			at(70, "TRF-LIST-BIRTH", "write the list's birth year", "born %d, FIDE's list has %d", y, l.BirthYear)
		}
		if p.Rating != l.Rating {
			at(49, "TRF-LIST-RATING", fmt.Sprintf("write %04d, the list's rating (0000 for unrated)", l.Rating), "rating %d, FIDE's list has %d", p.Rating, l.Rating)
		}
	}
	return out
}

func firstN(s string, n int) string {
	if len(s) < n {
		return s
	}
	return s[:n]
}

// sameName compares names as FIDE's list and pairing programs write them:
// case, blanks and the comma's spacing aside.
func sameName(a, b string) bool {
	norm := func(s string) string {
		return strings.ToLower(strings.Join(strings.Fields(strings.ReplaceAll(s, ",", ", ")), " "))
	}
	return norm(a) == norm(b)
}
