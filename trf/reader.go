package trf

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ratelist/ratelist/tiebreak"

	"github.com/ratelist/ratelist/internal/cp1252"
)

// File is the content of a TRF file.
type File struct {
	Name        string // 012
	City        string // 022
	Federation  string // 032
	Start, End  time.Time
	Type        string // 092, free text
	EncodedType string // 192 (TRF-2026), e.g. FIDE_DUTCH_2026 or FIDE_ROUNDROBIN
	Rounds      int    // 142 or XXR; 0 when absent
	// Tiebreaks are the tie-breaks the file names (TRF-2026 202, else 212), as
	// written: the order Check expects of the ranks within equal points.
	Tiebreaks string
	// Points is the point system of 162 or XXS (over the standard one); nil when
	// the file has neither.
	Points *tiebreak.PointSystem
	// Adjustments are the 299 points that the round results do not score.
	Adjustments []Adjustment
	Players     []Player
	// Teams are the team records (013, TRF-2026 310) in file order.
	Teams []Team
	// TeamPABs are the TRF-2026 320 records: the teams' pairing-allocated byes.
	TeamPABs []TeamPAB
	// BoardOrders are the TRF-2026 300 records: teams' board orders by round.
	BoardOrders []BoardOrder
	// Warnings are problems that did not stop the file from being read, and notes
	// on how the reader read what the file leaves open: a date that is not
	// understood (ErrStartDate, ErrEndDate) is left zero; an ambiguous date
	// (ErrAmbiguousDate), a file that is not UTF-8 (ErrNotUTF8), an empty result
	// (ErrEmptyResult) and a team record not understood (ErrTeam) are noted.
	Warnings []*SyntaxError
	fileName string
}

// Player is one 001 record.
type Player struct {
	Line       int // line number in the file
	StartNo    int
	Sex        string
	Title      string
	Name       string
	Rating     int // 0 = unrated
	Federation string
	FideID     int64
	Birth      string
	Points     float64 // as written in the file (not used for standings)
	HasPoints  bool    // the points column is not blank
	Rank       int
	Rounds     []Round // index = round − 1
	Team       int     // the Number of his team (File.Teams), 0 for none
	Board      int     // his board in the team, 1-based; 0 for none
	trimmed    []Round // the trailing triples without a game, cut off Rounds
}

// Round is one round triple. Opp is the opponent's starting rank, 0 for none.
// Result is an upper-case TRF code; a blank result is 'Z'.
type Round struct {
	Opp    int
	Color  byte // 'w', 'b' or 0
	Result byte
	Column int  // where the triple starts, for messages
	blank  bool // no opponent and no result: the points column decides (impliedByes)
	// implied is a bye impliedByes read from the points column in a blank round.
	implied bool
}

// maxLine bounds one record: 999 rounds fit.
const maxLine = 1 << 16

// Read parses a TRF file. fileName is used in messages only. A file that is not
// UTF-8 is read as Windows-1252, with a note.
func Read(r io.Reader, fileName string) (*File, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", fileName, err)
	}
	f := &File{fileName: fileName}
	data, latin := decodeText(raw)
	if latin {
		line, col := firstInvalid(bytes.TrimPrefix(raw, []byte("\ufeff")))
		f.Warnings = append(f.Warnings, &SyntaxError{File: fileName, Line: line, Column: col, Err: ErrNotUTF8})
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	sc.Split(scanLines)
	seen := map[int]int{}
	var byes []roundBye
	var abnormals []abnormal
	var dates headerDates
	teams013 := 0
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		rs := []rune(text)
		if len(strings.TrimSpace(text)) == 0 || len(rs) < 3 {
			continue
		}
		bad := func(col int, format string, args ...any) error {
			return &SyntaxError{File: fileName, Line: line, Column: col, Err: fmt.Errorf(format+": %w", append(args, ErrField)...)}
		}
		badPoints := func(col int, format string, args ...any) error {
			return &SyntaxError{File: fileName, Line: line, Column: col, Err: fmt.Errorf(format+": %w", append(args, ErrPoints)...)}
		}
		rest := strings.TrimSpace(cols(rs, 5, len(rs)))
		switch strings.ToUpper(string(rs[:3])) {
		case "001":
			p, err := parsePlayer(rs, bad)
			if err != nil {
				return nil, err
			}
			p.Line = line
			if prev, dup := seen[p.StartNo]; dup {
				return nil, &SyntaxError{File: fileName, Line: line, Column: 5, Err: fmt.Errorf("starting rank %d already on line %d: %w", p.StartNo, prev, ErrDuplicatePlayer)}
			}
			seen[p.StartNo] = line
			f.Players = append(f.Players, p)
		case "012":
			if f.Name == "" { // a column ruler under the header starts "012345…"
				f.Name = rest
			}
		case "022":
			f.City = rest
		case "032":
			f.Federation = rest
		case "042", "052":
			if rest != "" {
				dates.header = append(dates.header, dateField{line: line, start: rs[1] == '4', text: rest})
			}
		case "132":
			dates.rounds = append(dates.rounds, strings.Fields(rest)...)
			dates.roundsLine = line
		case "092":
			f.Type = rest
		case "192":
			f.EncodedType = rest
		case "202":
			f.Tiebreaks = rest
		case "212":
			if f.Tiebreaks == "" {
				f.Tiebreaks = rest
			}
		case "013", "310":
			t := parseTeam(rs, line)
			if rs[0] == '0' {
				teams013++
				t.Number = teams013
			}
			f.Teams = append(f.Teams, t)
		case "300": // team records: one not understood is noted, the games are read
			if o, err := parseBoardOrder(rs, line, bad); err != nil {
				f.Warnings = append(f.Warnings, teamWarning(err))
			} else {
				f.BoardOrders = append(f.BoardOrders, o)
			}
		case "320":
			if p, err := parseTeamPAB(rs, line, bad, badPoints); err != nil {
				f.Warnings = append(f.Warnings, teamWarning(err))
			} else {
				f.TeamPABs = append(f.TeamPABs, p)
			}
		case "162", "XXS":
			if f.Points == nil {
				ps := tiebreak.StandardPoints()
				f.Points = &ps
			}
			if err := parsePoints(rs, f.Points, bad, badPoints); err != nil {
				return nil, err
			}
		case "240":
			b, err := parseRoundBye(rs, line, bad)
			if err != nil {
				return nil, err
			}
			byes = append(byes, b)
		case "299":
			a, err := parseAbnormal(rs, line, bad, badPoints)
			if err != nil {
				return nil, err
			}
			abnormals = append(abnormals, a)
		case "142", "XXR":
			rest = strings.TrimSpace(cols(rs, 4, len(rs)))
			n, err := strconv.Atoi(rest)
			if err != nil || n < 0 || n > 999 {
				return nil, bad(5, "number of rounds %q", rest)
			}
			f.Rounds = n
		}
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return nil, &SyntaxError{File: fileName, Line: line + 1, Err: fmt.Errorf("line longer than %d bytes: %w", maxLine, ErrField)}
		}
		return nil, fmt.Errorf("read %s: %w", fileName, err)
	}
	if len(f.Players) == 0 {
		return nil, &SyntaxError{File: fileName, Line: line, Err: ErrNoPlayers}
	}
	f.resolveDates(dates)
	sort.SliceStable(f.Players, func(a, b int) bool { return f.Players[a].StartNo < f.Players[b].StartNo })
	if err := f.applyByes(byes); err != nil {
		return nil, err
	}
	if err := f.applyAbnormal(abnormals); err != nil {
		return nil, err
	}
	f.impliedByes()
	f.applyTeams()
	return f, nil
}

// decodeText is a file's text as UTF-8 without its BOM; latin tells that it was
// not UTF-8 and was read as Windows-1252, one character a byte.
func decodeText(data []byte) (text []byte, latin bool) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if utf8.Valid(data) {
		return data, false
	}
	return []byte(cp1252.Decode(data)), true
}

// scanLines is bufio.ScanLines that also ends a line at a CR alone: some pairing
// programs write CR-only files.
func scanLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	i := bytes.IndexAny(data, "\r\n")
	switch {
	case i < 0 && atEOF && len(data) > 0:
		return len(data), data, nil
	case i < 0:
		return 0, nil, nil
	case data[i] == '\n':
		return i + 1, data[:i], nil
	case i+1 < len(data):
		if data[i+1] == '\n' {
			return i + 2, data[:i], nil
		}
		return i + 1, data[:i], nil
	case atEOF:
		return i + 1, data[:i], nil
	}
	return 0, nil, nil // a CR at the end of the buffer: an LF may follow
}

// cols returns the 1-based inclusive column range [from, to] of a line, "" beyond its
// end.
func cols(rs []rune, from, to int) string {
	if from > len(rs) {
		return ""
	}
	to = min(to, len(rs))
	return string(rs[from-1 : to])
}

func parsePlayer(rs []rune, bad func(int, string, ...any) error) (Player, error) {
	var p Player
	s := strings.TrimSpace(cols(rs, 5, 8))
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return p, bad(5, "starting rank %q", s)
	}
	p.StartNo = n
	p.Sex = strings.TrimSpace(cols(rs, 10, 10))
	p.Title = strings.TrimSpace(cols(rs, 11, 13))
	p.Name = strings.TrimSpace(cols(rs, 15, 47))
	if s = strings.TrimSpace(cols(rs, 49, 52)); s != "" {
		if p.Rating, err = strconv.Atoi(s); err != nil || p.Rating < 0 {
			return p, bad(49, "rating %q", s)
		}
	}
	p.Federation = strings.TrimSpace(cols(rs, 54, 56))
	if s = strings.TrimSpace(cols(rs, 58, 68)); s != "" {
		if p.FideID, err = strconv.ParseInt(s, 10, 64); err != nil || p.FideID < 0 {
			return p, bad(58, "FIDE id %q", s)
		}
	}
	p.Birth = strings.TrimSpace(cols(rs, 70, 79))
	if s = strings.TrimSpace(cols(rs, 81, 84)); s != "" {
		if p.Points, err = strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64); err != nil || math.IsNaN(p.Points) || math.IsInf(p.Points, 0) {
			return p, bad(81, "points %q", s)
		}
		p.HasPoints = true
	}
	if s = strings.TrimSpace(cols(rs, 86, 89)); s != "" {
		if p.Rank, err = strconv.Atoi(s); err != nil {
			return p, bad(86, "rank %q", s)
		}
	}
	for c := 92; c <= len(rs); c += 10 {
		rd, err := parseRound(rs, c, bad)
		if err != nil {
			return p, err
		}
		p.Rounds = append(p.Rounds, rd)
	}
	// Trailing triples without a game are missing rounds, not data.
	for len(p.Rounds) > 0 {
		last := p.Rounds[len(p.Rounds)-1]
		if last.Opp != 0 || last.Result != 'Z' || last.Color != 0 {
			break
		}
		p.trimmed = append([]Round{last}, p.trimmed...)
		p.Rounds = p.Rounds[:len(p.Rounds)-1]
	}
	return p, nil
}

// parseRound reads the round triple at column c. Without an opponent, `=` is a
// half-point bye, `+` a full-point bye and `-` a zero-point bye, as TRF writers in
// use write them; a blank result there is left for impliedByes. With an opponent,
// `Z` is a pairing the player did not turn up to (lichess writes it): his
// opponent's record decides the game.
func parseRound(rs []rune, c int, bad func(int, string, ...any) error) (Round, error) {
	rd := Round{Column: c, Result: 'Z'}
	s := strings.TrimSpace(cols(rs, c, c+3))
	if s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return rd, bad(c, "opponent %q", s)
		}
		rd.Opp = n
	}
	switch col := strings.ToLower(strings.TrimSpace(cols(rs, c+5, c+5))); col {
	case "w", "b":
		rd.Color = col[0]
	case "", "-":
	default:
		return rd, bad(c+5, "colour %q", col)
	}
	res := strings.TrimSpace(cols(rs, c+7, c+7))
	switch res {
	case "":
		rd.blank = rd.Opp == 0
	case "½":
		rd.Result = '='
	default:
		r := strings.ToUpper(res)
		if len(r) != 1 || !strings.Contains("10=+-WDLHFUZ", r) {
			return rd, bad(c+7, "result %q", res)
		}
		rd.Result = r[0]
	}
	if rd.Opp == 0 {
		switch rd.Result {
		case '=':
			rd.Result = 'H'
		case '+':
			rd.Result = 'F'
		case '-':
			rd.Result = 'Z'
		}
	}
	played := strings.IndexByte("10=WDL", rd.Result) >= 0
	switch {
	case rd.Opp == 0 && played:
		return rd, bad(c+7, "played result %q without an opponent", res)
	case rd.Opp != 0 && strings.IndexByte("HFU", rd.Result) >= 0:
		return rd, bad(c+7, "bye result %q with opponent %d", string(rd.Result), rd.Opp)
	}
	return rd, nil
}

func isPlayed(c byte) bool { return strings.IndexByte("10=WDL", c) >= 0 }

// mirror is why the two records of one pairing contradict each other, "" when
// they agree: both played or both forfeited, one win against one loss, a draw
// against a draw, or a loss against a loss (a double forfeit, or a double loss an
// arbiter gave); colours, when both are written, opposite.
func mirror(a, b Round) string {
	outcome := func(c byte) byte {
		switch c {
		case '1', 'W', '+':
			return 'w'
		case '=', 'D':
			return 'd'
		}
		return 'l'
	}
	oa, ob := outcome(a.Result), outcome(b.Result)
	switch {
	case isPlayed(a.Result) != isPlayed(b.Result):
		return "one played, one forfeited"
	case oa == 'w' && ob == 'w':
		return "both claim the win"
	case (oa == 'd') != (ob == 'd') || oa == 'w' && ob != 'l' || ob == 'w' && oa != 'l':
		return "the results do not mirror"
	case a.Color != 0 && a.Color == b.Color:
		return "both with the same colour"
	}
	return ""
}

// Tournament converts the file. The system is "round-robin" or "swiss" as
// systemOf decides.
func (f *File) Tournament() (*tiebreak.Tournament, error) {
	t := &tiebreak.Tournament{Name: f.Name, Start: f.Start, End: f.End, Rounds: f.Rounds, Discipline: "chess", System: "swiss"}
	index := make(map[int]int, len(f.Players))
	for i, p := range f.Players {
		index[p.StartNo] = i
		t.Players = append(t.Players, tiebreak.Player{ID: p.FideID, StartNo: p.StartNo, Name: p.Name, Rating: p.Rating})
		t.Rounds = max(t.Rounds, len(p.Rounds))
	}
	met := map[[2]int]int{} // games per pair of players

	for i, p := range f.Players {
		for r, rd := range p.Rounds {
			perr := func(err error, format string, args ...any) error {
				return &SyntaxError{File: f.fileName, Line: p.Line, Column: rd.Column, Err: fmt.Errorf("round %d: "+format+": %w", append(append([]any{r + 1}, args...), err)...)}
			}
			if rd.Opp == 0 {
				if rd.Result != 'Z' {
					t.Games = append(t.Games, tiebreak.Game{Round: r + 1, White: i, Black: -1, WhiteResult: rd.Result})
				}
				continue
			}
			o, ok := index[rd.Opp]
			if !ok {
				return nil, perr(ErrUnknownOpponent, "starting rank %d", rd.Opp)
			}
			if o == i {
				return nil, perr(ErrPairing, "player paired with himself")
			}
			q := f.Players[o]
			there := fmt.Sprintf("%s:%d", f.fileName, q.Line) // the opponent's record
			other := Round{Result: tiebreak.OppositeResult(rd.Result)}
			switch {
			case r < len(q.Rounds) && q.Rounds[r].Opp == p.StartNo:
				other = q.Rounds[r]
				switch {
				case rd.Result == 'Z' && other.Result == 'Z':
					continue // paired, and neither turned up: no game
				case rd.Result == 'Z':
					continue // emitted from the opponent's record
				case other.Result == 'Z':
					other.Result = tiebreak.OppositeResult(rd.Result)
				case o < i:
					continue // emitted from the opponent's record
				}
			case rd.Result == 'Z':
				continue // paired, did not turn up, and the opponent's record shows no game
			case r < len(q.Rounds) && (q.Rounds[r].Opp != 0 || q.Rounds[r].Result != 'Z'):
				return nil, perr(ErrPairing, "opponent %d's record (%s) shows %s", rd.Opp, there, describe(q.Rounds[r]))
			}
			if err := mirror(rd, other); err != "" {
				return nil, perr(ErrPairing, "%s, opponent %d's record (%s) shows %s: %s", describe(rd), rd.Opp, there, describe(other), err)
			}
			met[[2]int{min(i, o), max(i, o)}]++
			g := tiebreak.Game{Round: r + 1, White: i, Black: o, WhiteResult: rd.Result, BlackResult: other.Result}
			if rd.Color == 'b' || (rd.Color == 0 && other.Color == 'w') {
				g.White, g.Black, g.WhiteResult, g.BlackResult = o, i, other.Result, rd.Result
			}
			t.Games = append(t.Games, g)
		}
	}
	t.System = systemOf(f.EncodedType, f.Type, len(f.Players), met)
	t.Points = f.Points
	for _, a := range f.Adjustments {
		t.Adjustments = append(t.Adjustments, tiebreak.Adjustment{Player: index[a.StartNo], Round: a.Round, Points: a.Points})
	}
	return t, nil
}

// systemOf is "round-robin" or "swiss": as 192 (the coded type) names it, else as
// 092 (free text) names it, else "round-robin" when every pair of the n players met
// equally often (single and double round robins, a rest round in odd fields).
func systemOf(encoded, typ string, n int, met map[[2]int]int) string {
	for _, s := range []string{encoded, typ} {
		if sys := namedSystem(s); sys != "" {
			return sys
		}
	}
	if n < 2 || len(met) != n*(n-1)/2 {
		return "swiss"
	}
	k := -1
	for _, c := range met {
		if k >= 0 && c != k {
			return "swiss"
		}
		k = c
	}
	return "round-robin"
}

// Words that name a system in 092 or 192, in the languages pairing programs write.
var (
	roundRobinWords = []string{"robin", "berger", "all-play-all", "all play all", "rundenturnier", "toutes rondes", "todos contra todos", "girone all'italiana"}
	swissWords      = []string{"swiss", "dutch", "burstein", "dubov", "monrad", "schweizer", "suisse", "suizo", "svizzero", "zwitsers"}
)

// namedSystem is the system a type text names, "" when it names none (e.g. the
// free text "Tournament").
func namedSystem(s string) string {
	s = strings.ToLower(s)
	for _, w := range roundRobinWords {
		if strings.Contains(s, w) {
			return "round-robin"
		}
	}
	for _, w := range swissWords {
		if strings.Contains(s, w) {
			return "swiss"
		}
	}
	return ""
}

// ReadTournament reads a TRF file and converts it.
func ReadTournament(r io.Reader, fileName string) (*tiebreak.Tournament, error) {
	f, err := Read(r, fileName)
	if err != nil {
		return nil, err
	}
	return f.Tournament()
}
