package report

import (
	"bytes"
	"fmt"
	"html/template"
	"strconv"
	"time"

	"github.com/ratelist/ratelist/day"
)

var funcs = template.FuncMap{
	"signed": func(n int) string { return string(appendSigned(nil, n)) },
	"sign":   signClass,
	"date":   func(d int32) string { return string(appendDate(nil, d)) },
	"title":  titleCase,
	"head":   headHTML,
	"foot":   footHTML,
}

// The player and tournament pages are the bulk of a site (one per player and
// per tournament), so they are written by hand into byte slices rather than
// through html/template, and kept small: the numbers as HTML, the chart and
// the games drawn by assets/site.js from the card table and the tournaments'
// data files.

// appendEsc appends s escaped for HTML text and attribute values.
func appendEsc(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		var r string
		switch s[i] {
		case '<':
			r = "&lt;"
		case '>':
			r = "&gt;"
		case '&':
			r = "&amp;"
		case '"':
			r = "&#34;"
		case '\'':
			r = "&#39;"
		default:
			continue
		}
		b = append(b, s[last:i]...)
		b = append(b, r...)
		last = i + 1
	}
	return append(b, s[last:]...)
}

// appendJSONString appends s as a JSON string, safe inside a script file.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, s[last:i]...)
			b = append(b, '\\', c)
		case c < 0x20 || c == '<':
			b = append(b, s[last:i]...)
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		case c == 0xe2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9):
			// U+2028 and U+2029 end a line in older JavaScript.
			b = append(b, s[last:i]...)
			b = append(b, `\u202`...)
			b = append(b, "89"[s[i+2]-0xa8])
			i += 2
		default:
			continue
		}
		last = i + 1
	}
	b = append(b, s[last:]...)
	return append(b, '"')
}

// appendHead appends the start of every page: head, site header, navigation.
// Kept short: every page has it, and a site has hundreds of thousands
// (attribute values unquoted where HTML allows).
func appendHead(b []byte, p page) []byte {
	b = append(b, "<!DOCTYPE html>\n<html lang=en>\n<meta charset=utf-8>\n<meta name=viewport content=\"width=device-width,initial-scale=1\">\n<title>"...)
	b = appendEsc(b, p.Title)
	b = append(b, " · "...)
	b = appendEsc(b, p.Site)
	b = append(b, "</title>\n"...)
	skip := "#main"
	if p.Base != "" {
		// The page's many links go to one folder: relative to it, each is
		// shorter; the others start with ../ and land the same.
		b = append(b, "<base href="...)
		b = append(b, p.Root...)
		b = append(b, p.Base...)
		b = append(b, ">\n"...)
		skip = p.Self + "#main"
	}
	b = append(b, "<link rel=stylesheet href="...)
	b = append(b, p.Root...)
	b = append(b, "assets/style.css>\n"...)
	if p.Style != "" {
		b = append(b, "<style>"...)
		b = append(b, p.Style...)
		b = append(b, "</style>\n"...)
	}
	// The head's and body's tags are optional: the parser opens them.
	b = append(b, "<a class=skip href="...)
	b = append(b, skip...)
	b = append(b, ">Skip to content</a>\n<header><a class=brand href="...)
	b = append(b, p.Root...)
	b = append(b, "index.html"...)
	if p.Nav == "list" {
		b = append(b, " aria-current=page"...)
	}
	b = append(b, '>')
	b = appendEsc(b, p.Site)
	// The site's links as plain links (no list items): every page has them;
	// the site's name links the latest list.
	b = append(b, "</a>\n<nav aria-label=Site>"...)
	for _, n := range []struct{ nav, file, text string }{{"lists", "lists.html", "All lists"}, {"top", "top.html", "Top lists"}, {"tournaments", "tournaments.html", "Tournaments"}} {
		b = append(b, "<a href="...)
		b = append(b, p.Root...)
		b = append(b, n.file...)
		if p.Nav == n.nav {
			b = append(b, " aria-current=page"...)
		}
		b = append(b, '>')
		b = append(b, n.text...)
		b = append(b, "</a>"...)
	}
	return append(b, "</nav></header>\n<main id=main>\n"...)
}

// appendFoot appends the end of every page (the end tags of body and html
// are optional; no footer: a site has hundreds of thousands of pages).
func appendFoot(b []byte) []byte {
	return append(b, "</main>\n"...)
}

// headHTML and footHTML give the template pages the same head and foot.
func headHTML(site, title, root, nav, style string) template.HTML {
	return template.HTML(appendHead(nil, page{Site: site, Title: title, Root: root, Nav: nav, Style: style}))
}

func footHTML() template.HTML { return template.HTML(appendFoot(nil)) }

func appendDate(b []byte, d int32) []byte {
	if d == 0 {
		return b
	}
	return day.Day(d).Time().AppendFormat(b, time.DateOnly)
}

func appendSigned(b []byte, n int) []byte {
	switch {
	case n > 0:
		b = append(b, '+')
	case n < 0:
		b = append(b, "−"...)
		n = -n
	}
	return strconv.AppendInt(b, int64(n), 10)
}

func appendFact(b []byte, dt, dd string) []byte {
	b = append(b, "<div><dt>"...)
	b = append(b, dt...)
	b = append(b, "<dd>"...) // the end tags of dt and dd are optional
	b = appendEsc(b, dd)
	return append(b, "</div>\n"...)
}

func signClass(n int) string {
	switch {
	case n > 0:
		return "up"
	case n < 0:
		return "down"
	}
	return ""
}

// page is what every page template gets.
type page struct {
	Site  string // site title
	Title string // page title
	Root  string // relative path to the site root: "" or "../"
	Nav   string // active navigation entry
	Style string // the page's own style: which columns a phone shows (tableCSS; a standings table's layouts the sheet lacks)
	Base  string // the folder the page's relative links start from, under Root: "" for its own
	Self  string // with Base, the page's own address from there ("../players/1.html")
}

func (s *site) page(title, root, nav string) page {
	return page{Site: s.title, Title: title, Root: root, Nav: nav}
}

// putPage renders the template name with data as the file rel.
func (s *site) putPage(rel, name string, data any, key uint64) error {
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, name, data); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return s.out.put(rel, b.Bytes(), key)
}
