package report

import (
	"fmt"

	"github.com/ratelist/ratelist/crosstable"
)

// The standings' layouts: which columns are text, bold, and shown on a
// phone. They depend only on the columns before the rounds (counted from the
// start) and those after them (counted from the end; the rounds between are
// extra), so a table names its two layouts as classes and the shared sheet
// holds every layout a standings table can have: a page carries no style of
// its own (one per tournament page made a site 30 MB bigger).

// maxStCodes is the most tiebreak codes a layout in the sheet has; a
// table with more carries its tail's layout in its page.
const maxStCodes = 9

// stLayouts returns the classes of the two layouts of a standings table of
// columns cols, and the style of those the sheet does not hold.
func stLayouts(cols []crosstable.Column) (classes, style string) {
	head, tail := stSplit(cols)
	hc, tc := stClass("h", head), stClass("t", tail)
	codes := 0
	for _, c := range tail {
		if c.Kind == crosstable.Tiebreak {
			codes++
		}
	}
	if codes > maxStCodes {
		style = string(stLayoutCSS(tc, tail, true))
	}
	return hc + " " + tc, style
}

// stSplit splits cols into the columns before the rounds and those after.
func stSplit(cols []crosstable.Column) (head, tail []crosstable.Column) {
	i := 0
	for i < len(cols) && cols[i].Kind < crosstable.Round {
		i++
	}
	j := i
	for j < len(cols) && cols[j].Kind == crosstable.Round {
		j++
	}
	return cols[:i], cols[j:]
}

// stKinds names each kind of column by a letter, in the layout's class.
var stKinds = map[crosstable.Kind]byte{
	crosstable.Rank: 'r', crosstable.StartNo: 's', crosstable.Title: 't', crosstable.Name: 'n',
	crosstable.Federation: 'f', crosstable.Club: 'c', crosstable.Rating: 'g', crosstable.Points: 'p',
	crosstable.Tiebreak: 'b', crosstable.Perf: 'e', crosstable.Change: 'd',
}

// stClass names the layout of cols: prefix, then a letter per column.
func stClass(prefix string, cols []crosstable.Column) string {
	b := []byte(prefix + "-")
	for _, c := range cols {
		b = append(b, stKinds[c.Kind])
	}
	return string(b)
}

// stLayoutCSS is the style of layout class of columns cols, counted from the
// end when last: bold and text columns, and the columns a phone shows (the
// sheet hides every cell of a standings table there, unless All columns is
// ticked).
func stLayoutCSS(class string, cols []crosstable.Column, last bool) []byte {
	nth := "nth-child"
	if last {
		nth = "nth-last-child"
	}
	sel := func(in func(c crosstable.Column) bool) []byte {
		var b []byte
		for i, c := range cols {
			if !in(c) {
				continue
			}
			k := i + 1
			if last {
				k = len(cols) - i
			}
			if len(b) > 0 {
				b = append(b, ',')
			}
			b = fmt.Appendf(b, ":%s(%d)", nth, k)
		}
		return b
	}
	var b []byte
	if s := sel(func(c crosstable.Column) bool { return c.Bold }); len(s) > 0 {
		b = fmt.Appendf(b, ".%s td:is(%s){font-weight:600}", class, s)
	}
	if s := sel(func(c crosstable.Column) bool { return c.Text }); len(s) > 0 {
		b = fmt.Appendf(b, ".%s :is(td,th):is(%s){text-align:left}", class, s)
	}
	if s := sel(func(c crosstable.Column) bool { return !c.Extra }); len(s) > 0 {
		b = fmt.Appendf(b, "@media(max-width:%s){#st-all:not(:checked)~.scroll .%s :is(td,th):is(%s){display:table-cell}}", narrowWidth, class, s)
	}
	return append(b, '\n')
}

// stSheet is the style of every standings layout: each table the crosstable
// package can build with up to maxStCodes tiebreak codes.
func stSheet() []byte {
	b := fmt.Appendf(nil, "@media(max-width:%s){#st-all:not(:checked)~.scroll .st :is(td,th){display:none}}\n", narrowWidth)
	seen := map[string]bool{}
	add := func(prefix string, cols []crosstable.Column, last bool) {
		if c := stClass(prefix, cols); !seen[c] {
			seen[c] = true
			b = append(b, stLayoutCSS(c, cols, last)...)
		}
	}
	for _, x := range stTables() {
		head, tail := stSplit(x.Cols)
		add("h", head, false)
		add("t", tail, true)
	}
	return b
}

// stTables are a table of every layout the sheet holds.
func stTables() []*crosstable.Table {
	var xs []*crosstable.Table
	for _, ranked := range []bool{false, true} {
		for _, title := range []bool{false, true} {
			for _, info := range []string{"", "fed", "club"} {
				for _, rated := range []bool{false, true} {
					for n := 0; n <= maxStCodes; n++ {
						e := crosstable.Entry{Tiebreaks: make([]string, n), Player: -1}
						if ranked {
							e.Rank = 1
						}
						in := crosstable.Input{Entries: []crosstable.Entry{e}, Codes: make([]string, n), Rated: rated, Clubs: info == "club",
							Info: func(*crosstable.Entry) crosstable.Info {
								v := crosstable.Info{Club: "c"}
								if title {
									v.Title = "t"
								}
								if info == "fed" {
									v.Federation = "f"
								}
								return v
							}}
						xs = append(xs, crosstable.Build(in))
					}
				}
			}
		}
	}
	return xs
}
