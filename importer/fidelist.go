package importer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ratelist/ratelist/archive"

	"github.com/ratelist/ratelist/internal/cp1252"
)

// FideListPlayer is one player of FIDE's players list, as ReadFideList reads
// him: text as written (trimmed), numbers 0 when blank.
type FideListPlayer struct {
	Line       int64 // where he was read (the line of <player> in XML)
	ID         int64
	Name       string
	Federation string
	Sex        string // M or F
	Title      string // Tit: GM, IM, … (also a woman's GM)
	WTitle     string // WTit: WGM, WIM, …
	Rating     int32  // standard
	Rapid      int32
	Blitz      int32
	BirthYear  int32
	Flag       string // i inactive, w woman, wi
}

// maxListLine bounds a line of the text list (real lines are about 160 bytes).
const maxListLine = 64 << 10

// ReadFideList reads FIDE's players list from r, player by player, one pass,
// and calls fn with each (the same value, reused: copy what you keep). name
// is the file's name, in problems, and tells which rating a single list
// holds: a name with "rapid" or "blitz" in it is FIDE's rapid or blitz list,
// any other the standard list (or the combined list, whose columns say).
//
// The list is FIDE's fixed-width text (its first line names the columns:
// players_list_foa.txt, standard_rating_list.txt and their older layouts; the
// columns are found from that line) or its XML (<playerslist><player>…).
// Text is UTF-8, else Windows-1252, line by line. A player who cannot be read
// (an ID that is not a number, a control character in a text field, a rating
// that is not a number) is handed to bad and left out; fn's error stops the
// read.
func ReadFideList(r io.Reader, name string, fn func(*FideListPlayer) error, bad func(*Problem)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(512)
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\ufeff")), " \t\r\n")
	tc := listTimeControl(name)
	if bytes.HasPrefix(head, []byte("<")) {
		return readFideXML(br, name, tc, fn, bad)
	}
	return readFideTXT(br, name, tc, fn, bad)
}

// listTimeControl is the time control of a single list, from its file name.
func listTimeControl(name string) string {
	base := strings.ToLower(filepath.Base(name))
	switch {
	case strings.Contains(base, "rapid"):
		return "rapid"
	case strings.Contains(base, "blitz"):
		return "blitz"
	}
	return "standard"
}

// listColumn is a column of the text list: which field, from which character
// (counted in characters, as the header line gives it) to the next column.
type listColumn struct {
	field    string
	from, to int
}

// listFields maps the header labels FIDE's text lists use (lower case) to the
// fields read; others (OTit, FOA, games, K) are skipped. A single list heads
// its rating column with the list's month (SEP26).
var listFields = map[string]string{
	"id": "id", "name": "name", "fed": "fed", "sex": "sex", "tit": "tit", "titl": "tit", "wtit": "wtit",
	"srtng": "standard", "rrtng": "rapid", "brtng": "blitz", "rtng": "single",
	"b-day": "born", "born": "born", "flag": "flag",
}

// listHeader finds the columns of a text list's header line.
func listHeader(h []rune) ([]listColumn, error) {
	var cols []listColumn
	for i := 0; i < len(h); {
		if h[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(h) && h[j] != ' ' {
			j++
		}
		label := strings.ToLower(string(h[i:j]))
		if label == "id" { // "ID Number" is one label
			if k := j + 1; k < len(h) && strings.HasPrefix(strings.ToLower(string(h[k:])), "number") {
				j = k + len("number")
			}
		}
		field, ok := listFields[label]
		if !ok && len(label) == 5 && strings.Trim(label[:3], "abcdefghijklmnopqrstuvwxyz") == "" && strings.Trim(label[3:], "0123456789") == "" {
			field, ok = "single", true // SEP26: the month of a single list
		}
		if n := len(cols); n > 0 {
			cols[n-1].to = i
		}
		if !ok {
			field = ""
		}
		cols = append(cols, listColumn{field: field, from: i, to: -1})
		i = j
	}
	has := map[string]bool{}
	for _, c := range cols {
		has[c.field] = true
	}
	if !has["id"] || !has["name"] {
		return nil, fmt.Errorf("%w: the first line does not name the columns ID Number and Name", ErrFideList)
	}
	return cols, nil
}

func readFideTXT(br *bufio.Reader, name, tc string, fn func(*FideListPlayer) error, bad func(*Problem)) error {
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 0, 4096), maxListLine)
	var cols []listColumn
	var p FideListPlayer
	line := int64(0)
	for sc.Scan() {
		line++
		raw := bytes.TrimRight(sc.Bytes(), "\r")
		if line == 1 {
			raw = bytes.TrimPrefix(raw, []byte("\ufeff"))
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		if cols == nil {
			var err error
			if cols, err = listHeader(listRunes(raw)); err != nil {
				return fmt.Errorf("%s:%d: %w", name, line, err)
			}
			continue
		}
		p = FideListPlayer{Line: line}
		// Columns count characters: an ASCII line (nearly all) is cut by bytes.
		ascii, n := string(raw), len(raw)
		var text []rune
		if !isASCII(raw) {
			text = listRunes(raw)
			n = len(text)
		}
		field := func(c listColumn) string {
			to := c.to
			if to < 0 || to > n {
				to = n
			}
			if c.from >= to {
				return ""
			}
			if text == nil {
				return strings.TrimSpace(ascii[c.from:to])
			}
			return strings.TrimSpace(string(text[c.from:to]))
		}
		var err error
		for _, c := range cols {
			if err = p.set(c.field, field(c), tc); err != nil {
				break
			}
		}
		if err == nil {
			err = p.check()
		}
		if err != nil {
			bad(&Problem{File: name, Line: line, Err: err})
			continue
		}
		if err := fn(&p); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	if cols == nil {
		return fmt.Errorf("%s: %w: no header line", name, ErrFideList)
	}
	return nil
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// listRunes is a line of the text list as characters: UTF-8 when it is, else
// Windows-1252 (one byte, one character), so that columns count alike.
func listRunes(b []byte) []rune {
	if utf8.Valid(b) {
		return []rune(string(b))
	}
	return []rune(cp1252.Decode(b))
}

// set sets field f (a listFields value) of p from its text v; tc is the time
// control of a single list's rating.
func (p *FideListPlayer) set(f, v, tc string) error {
	num := func(what string) (int32, error) {
		if v == "" {
			return 0, nil
		}
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%s %q is not a number: %w", what, archive.Excerpt(v), ErrMalformed)
		}
		return int32(n), nil
	}
	var err error
	switch f {
	case "id":
		id, perr := strconv.ParseInt(v, 10, 64)
		if perr != nil || id <= 0 {
			return fmt.Errorf("ID Number %q is not a FIDE id: %w", archive.Excerpt(v), ErrMalformed)
		}
		p.ID = id
	case "name":
		p.Name = v
	case "fed":
		p.Federation = v
	case "sex":
		p.Sex = v
	case "tit":
		p.Title = v
	case "wtit":
		p.WTitle = v
	case "flag":
		p.Flag = v
	case "standard":
		p.Rating, err = num("standard rating")
	case "rapid":
		p.Rapid, err = num("rapid rating")
	case "blitz":
		p.Blitz, err = num("blitz rating")
	case "single":
		var r int32
		r, err = num(tc + " rating")
		switch tc {
		case "rapid":
			p.Rapid = r
		case "blitz":
			p.Blitz = r
		default:
			p.Rating = r
		}
	case "born":
		p.BirthYear, err = num("birth year")
	}
	return err
}

// check refuses a player without an id and text fields the archive would
// refuse (textError).
func (p *FideListPlayer) check() error {
	if p.ID <= 0 {
		return fmt.Errorf("no ID Number: %w", ErrMalformed)
	}
	for _, f := range [...]struct{ name, v string }{{"name", p.Name}, {"federation", p.Federation}, {"sex", p.Sex}, {"title", p.Title}, {"women's title", p.WTitle}, {"flag", p.Flag}} {
		if err := textError(f.name, f.v); err != nil {
			return err
		}
	}
	return nil
}

// fideXMLPlayer is a <player> of FIDE's XML list.
type fideXMLPlayer struct {
	FideID   string `xml:"fideid"`
	Name     string `xml:"name"`
	Country  string `xml:"country"`
	Sex      string `xml:"sex"`
	Title    string `xml:"title"`
	WTitle   string `xml:"w_title"`
	Rating   string `xml:"rating"`
	Rapid    string `xml:"rapid_rating"`
	Blitz    string `xml:"blitz_rating"`
	Birthday string `xml:"birthday"`
	Flag     string `xml:"flag"`
}

func readFideXML(br *bufio.Reader, name, tc string, fn func(*FideListPlayer) error, bad func(*Problem)) error {
	d := xml.NewDecoder(br)
	d.CharsetReader = func(charset string, in io.Reader) (io.Reader, error) {
		switch strings.ToLower(charset) {
		case "iso-8859-1", "latin1", "windows-1252", "cp1252":
			return &cp1252Reader{r: bufio.NewReader(in)}, nil
		}
		return nil, fmt.Errorf("%w: encoding %q", ErrFideList, charset)
	}
	var p FideListPlayer
	players := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		line, _ := d.InputPos()
		if err != nil {
			return fmt.Errorf("%s:%d: %w: %w", name, line, ErrFideList, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "player" {
			continue
		}
		players++
		var x fideXMLPlayer
		if err := d.DecodeElement(&x, &se); err != nil {
			return fmt.Errorf("%s:%d: %w: %w", name, line, ErrFideList, err)
		}
		p = FideListPlayer{Line: int64(line)}
		err = nil
		for _, f := range [...]struct{ field, v string }{
			{"id", x.FideID}, {"name", x.Name}, {"fed", x.Country}, {"sex", x.Sex}, {"tit", x.Title}, {"wtit", x.WTitle},
			{"single", x.Rating}, {"rapid", x.Rapid}, {"blitz", x.Blitz}, {"born", x.Birthday}, {"flag", x.Flag},
		} {
			if err = p.set(f.field, strings.TrimSpace(f.v), tc); err != nil {
				break
			}
		}
		if err == nil {
			err = p.check()
		}
		if err != nil {
			bad(&Problem{File: name, Line: int64(line), Err: err})
			continue
		}
		if err := fn(&p); err != nil {
			return err
		}
	}
	if players == 0 {
		return fmt.Errorf("%s: %w: no <player> element", name, ErrFideList)
	}
	return nil
}

// cp1252Reader decodes Windows-1252 (and so Latin-1) to UTF-8 as it reads.
type cp1252Reader struct {
	r       *bufio.Reader
	in, out []byte
}

func (c *cp1252Reader) Read(b []byte) (int, error) {
	for len(c.out) == 0 {
		if c.in == nil {
			c.in = make([]byte, 4096)
		}
		n, err := c.r.Read(c.in)
		c.out = []byte(cp1252.Decode(c.in[:n]))
		if n == 0 && err != nil {
			return 0, err
		}
	}
	n := copy(b, c.out)
	c.out = c.out[n:]
	return n, nil
}

// FideListOptions tune ImportFideList.
type FideListOptions struct {
	// Add adds the list's players who are not in the archive as new players
	// (their name, FIDE id and the fields below); by default they are only
	// counted.
	Add bool
	// Report, when set, is handed each line left out as it is found, instead
	// of FideListStats.Problems keeping them.
	Report func(p *Problem)
}

// FideListStats counts what ImportFideList did.
type FideListStats struct {
	Files     int
	Read      int64 // players read from the lists (lines left out not counted)
	Matched   int64 // of Read: found in the archive by FIDE id
	Unmatched int64 // of Read: not in the archive
	Added     int64 // of Unmatched: added as new players (FideListOptions.Add)
	Skipped   int64 // lines left out (Problems)
	// Updated counts the archive players whose field changed, by column:
	// federation, sex, title, birth_year, fide_rating.
	Updated  map[string]int64
	Problems []*Problem
}

// ImportFideList reads FIDE's players lists (ReadFideList) into a's players,
// matched on fide_id. A matched player takes the list's federation, sex,
// title (the women's title when he has no other), birth year and standard
// rating (fide_rating) where the list gives one; his name stays the
// archive's, and a field the list leaves blank is kept. A list player not in
// the archive is counted, or added with opt.Add. Each file is read in one
// pass: memory holds the archive's players, not the list.
func ImportFideList(ctx context.Context, a *Archive, files []string, opt FideListOptions) (*FideListStats, error) {
	st := &FideListStats{Updated: map[string]int64{}}
	bad := func(p *Problem) {
		st.Skipped++
		if opt.Report != nil {
			opt.Report(p)
		} else {
			st.Problems = append(st.Problems, p)
		}
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return st, err
		}
		st.Files++
		n := 0
		err = ReadFideList(f, name, func(p *FideListPlayer) error {
			if n++; n%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			st.Read++
			a.fideListPlayer(p, opt.Add, st)
			return nil
		}, bad)
		f.Close()
		if err != nil {
			return st, err
		}
	}
	return st, nil
}

// fideListPlayer merges one list player into the archive's players.
func (a *Archive) fideListPlayer(p *FideListPlayer, add bool, st *FideListStats) {
	i, ok := a.byFide[p.ID]
	if !ok {
		st.Unmatched++
		if !add || normName(p.Name) == "" {
			return
		}
		id := p.ID
		a.Players = append(a.Players, archive.PlayerRow{PlayerID: a.nextPlayer, Name: normName(p.Name), FideID: &id})
		a.nextPlayer++
		i = len(a.Players) - 1
		a.index(i)
		a.dirtyPlayers = true
		st.Added++
	} else {
		st.Matched++
	}
	row := &a.Players[i]
	setStr := func(col string, dst **string, v string) {
		if v != "" && (*dst == nil || **dst != v) {
			*dst = &v
			a.dirtyPlayers = true
			if ok {
				st.Updated[col]++
			}
		}
	}
	setInt := func(col string, dst **int32, v int32) {
		if v != 0 && (*dst == nil || **dst != v) {
			*dst = &v
			a.dirtyPlayers = true
			if ok {
				st.Updated[col]++
			}
		}
	}
	title := normTitle(p.Title)
	if title == "" {
		title = normTitle(p.WTitle)
	}
	setStr("federation", &row.Federation, strings.ToUpper(p.Federation))
	setStr("sex", &row.Sex, normSex(p.Sex))
	setStr("title", &row.Title, title)
	if p.BirthYear >= 1850 && p.BirthYear <= 2200 {
		setInt("birth_year", &row.BirthYear, p.BirthYear)
	}
	if p.Rating <= 4000 {
		setInt("fide_rating", &row.FideRating, p.Rating)
	}
}
