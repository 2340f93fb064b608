package report

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/ratelist/ratelist/rating"
)

// The big tables (lists, standings, cards) are written by hand, compactly:
// cells without their optional end tags, numbers right-aligned, the text
// columns left-aligned by the page's style (tableCSS). At phone width a
// table shows its columns that are not extra; a box above it, "All columns",
// shows the rest, the table then scrolling inside its frame, never the page.

// col is one column of a table.
type col struct {
	head  string // the heading, HTML
	bold  bool   // the column the table is about (rating, points)
	key   string // the column's name, for assets/list.js to sort by
	title string // the heading's full name, when head is an abbreviation
	text  bool   // text, left-aligned (numbers are right-aligned)
	extra bool   // hidden at phone width until "All columns" is ticked
}

// narrowWidth is the widest screen that shows only the columns that are not
// extra: phones held upright.
const narrowWidth = "40em"

// tableCSS returns the style of table id: its text columns left-aligned,
// and its extra columns hidden at phone width unless its "All columns" box is
// ticked. A page's style, not a class on each cell: the big tables' cells
// then carry no attributes. Runs of columns take one selector each.
func tableCSS(id string, cols []col) string {
	runs := func(in func(c col) bool) []byte {
		var b []byte
		for i := 0; i < len(cols); i++ {
			if !in(cols[i]) {
				continue
			}
			j := i
			for j+1 < len(cols) && in(cols[j+1]) {
				j++
			}
			if len(b) > 0 {
				b = append(b, ',')
			}
			if i == j {
				b = fmt.Appendf(b, ":nth-child(%d)", i+1)
			} else {
				b = fmt.Appendf(b, ":nth-child(n+%d):nth-child(-n+%d)", i+1, j+1)
			}
			i = j
		}
		return b
	}
	var b []byte
	if bold := runs(func(c col) bool { return c.bold }); len(bold) > 0 {
		b = fmt.Appendf(b, "#%s td:is(%s){font-weight:600}", id, bold)
	}
	if text := runs(func(c col) bool { return c.text }); len(text) > 0 {
		b = fmt.Appendf(b, "#%s :is(td,th):is(%s){text-align:left}", id, text)
	}
	if extra := runs(func(c col) bool { return c.extra }); len(extra) > 0 {
		b = fmt.Appendf(b, "@media(max-width:%s){#%s-all:not(:checked)~.scroll #%s :is(td,th):is(%s){display:none}}", narrowWidth, id, id, extra)
	}
	return string(b)
}

// appendTableStart appends the box that shows every column (when some are
// extra), the frame and the table's start: its caption and head. The
// attribute values need no quotes (class holds no space but between classes,
// quoted then).
func appendTableStart(b []byte, id, class, caption string, cols []col) []byte {
	for _, c := range cols {
		if c.extra {
			b = append(b, "<input type=checkbox class=allcols id="...)
			b = append(b, id...)
			b = append(b, "-all><label class=allcols for="...)
			b = append(b, id...)
			b = append(b, "-all>All columns</label>\n"...)
			break
		}
	}
	b = append(b, "<div class=scroll>\n<table class=\""...)
	b = append(b, class...)
	b = append(b, "\" id="...)
	b = append(b, id...)
	b = append(b, ">\n<caption>"...)
	b = appendEsc(b, caption)
	b = append(b, "</caption>\n<thead><tr>"...)
	for _, c := range cols { // a heading's end tag is optional
		b = append(b, "<th scope=col"...)
		if c.key != "" {
			b = append(b, " data-col=\""...)
			b = appendEsc(b, c.key)
			b = append(b, '"')
			if !c.text {
				b = append(b, " data-num"...)
			}
		}
		b = append(b, '>')
		if c.title != "" {
			b = append(b, "<abbr title=\""...)
			b = appendEsc(b, c.title)
			b = append(b, "\">"...)
			b = append(b, c.head...)
			b = append(b, "</abbr>"...)
		} else {
			b = append(b, c.head...)
		}
	}
	return append(b, "</thead>\n<tbody>\n"...)
}

// appendTableEnd closes what appendTableStart opened (the end tags of the
// last row and of the body are optional).
func appendTableEnd(b []byte) []byte {
	return append(b, "</table>\n</div>\n"...)
}

// appendChange appends a rating change cell: signed, empty when there is
// none (a player new to the list).
func appendChange(b []byte, n int, ok bool) []byte {
	b = append(b, "<td>"...)
	if ok {
		b = appendSigned(b, n)
	}
	return b
}

// flagName says what a list's flag means: "new" is the list's own, the
// others the registered rule sets' (the first to declare it).
func flagName(f string) string {
	if f == "new" {
		return "first list"
	}
	for _, d := range rating.Definitions() {
		if n := d.Flags[f]; n != "" {
			return n
		}
	}
	return ""
}

// flagsText spells out a row's flags: "new (first list)".
func flagsText(flags string) string {
	var b []byte
	for _, f := range strings.Fields(flags) {
		if len(b) > 0 {
			b = append(b, ", "...)
		}
		b = append(b, f...)
		if n := flagName(f); n != "" {
			b = append(b, " ("+n+")"...)
		}
	}
	return string(b)
}

// appendFlagLegend appends the meaning of each flag that the rows use.
func appendFlagLegend(b []byte, used map[string]bool) []byte {
	if len(used) == 0 {
		return b
	}
	fs := make([]string, 0, len(used))
	for f := range used {
		fs = append(fs, f)
	}
	sort.Strings(fs)
	b = append(b, "<p class=\"legend\">Flags: "...)
	for i, f := range fs {
		if i > 0 {
			b = append(b, "; "...)
		}
		b = append(b, "<b>"...)
		b = appendEsc(b, f)
		b = append(b, "</b>"...)
		if n := flagName(f); n != "" {
			b = append(b, " "...)
			b = appendEsc(b, n)
		}
	}
	return append(b, ".</p>\n"...)
}

// appendOpt appends an optional number, nothing when there is none.
func appendOpt(b []byte, v int32) []byte {
	if v == none {
		return b
	}
	return strconv.AppendInt(b, int64(v), 10)
}

// appendF appends f with prec decimals, nothing when it is NaN.
func appendF(b []byte, f float64, prec int) []byte {
	if math.IsNaN(f) {
		return b
	}
	return strconv.AppendFloat(b, f, 'f', prec, 64)
}

// appendShortF appends f as appendF does, without trailing zeros (1.02,
// not 1.020): the cards have millions of them.
func appendShortF(b []byte, f float64, prec int) []byte {
	n := len(b)
	b = appendF(b, f, prec)
	if bytes.IndexByte(b[n:], '.') < 0 {
		return b
	}
	b = bytes.TrimRight(b, "0")
	return bytes.TrimSuffix(b, []byte("."))
}
