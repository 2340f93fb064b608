package norms

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ratelist/ratelist/internal/csvfield"
)

// Header is the CSV header WriteCSV writes.
var Header = []string{"start_no", "name", "norm_title", "achieved", "games", "ra", "rp", "score", "fails", "rounds_used"}

// WriteCSV writes one row per result: the name as a text cell safe for
// spreadsheets, achieved yes/no, the failing articles separated by ';', the
// rounds counted as ranges (1-9, or 1-4,6-9).
func WriteCSV(w io.Writer, results []Result) error {
	cw := csv.NewWriter(w)
	cw.Write(Header)
	for _, r := range results {
		cw.Write([]string{strconv.Itoa(r.StartNo), csvfield.Text(r.Name), r.Title, yesNo(r.Achieved), strconv.Itoa(r.Games),
			strconv.Itoa(r.Ra), strconv.Itoa(r.Rp), formatPoints(r.Score), strings.Join(r.Fails(), ";"), RoundList(r.Rounds)})
	}
	cw.Flush()
	return cw.Error()
}

// WriteText writes each result with every requirement's number, what it needs
// and whether it holds, then the games counted (the IT1 certificate's list).
func WriteText(w io.Writer, results []Result) error {
	var b strings.Builder
	for i, r := range results {
		if i > 0 {
			b.WriteString("\n")
		}
		verdict := "no norm"
		if r.Achieved {
			verdict = "NORM"
		}
		bye := ""
		if r.ByeRound > 0 {
			bye = fmt.Sprintf(" (and round %d's forfeit win or bye, 1.4.1c)", r.ByeRound)
		}
		fmt.Fprintf(&b, "%d %s: %s %s, %s/%d games%s (%d%%), Ra %d, dp %d, Rp %d, rounds %s\n",
			r.StartNo, r.Name, r.Title, verdict, formatPoints(r.Score), r.Games, bye, r.Percent, r.Ra, r.Dp, r.Rp, RoundList(r.Rounds))
		for _, q := range r.Requirements {
			op := "≥"
			if q.Max {
				op = "≤"
			}
			mark := "ok"
			switch {
			case q.Exempt:
				mark = "exempt"
			case !q.Holds:
				mark = "FAILS"
			}
			fmt.Fprintf(&b, "  %-7s %-45s %6s %s %-6s %s\n", q.Article, q.What, formatPoints(q.Value), op, formatPoints(q.Need), mark)
		}
		for _, o := range r.Opponents {
			rating := strconv.Itoa(o.Rating)
			if o.Rating == 0 {
				rating = "unrated " + strconv.Itoa(Unrated)
			}
			if o.Raised {
				rating += fmt.Sprintf(" raised to %d", o.Counted)
			}
			fmt.Fprintf(&b, "  round %2d %-1s %4d %-3s %-30s %-3s %-27s %s\n", o.Round, o.Colour, o.StartNo, o.Title, o.Name, o.Federation, rating, formatPoints(o.Result))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RoundList writes rounds (ascending) as ranges: 1-9, 1-4,6-9, 3.
func RoundList(rounds []int) string {
	var parts []string
	for i := 0; i < len(rounds); {
		j := i
		for j+1 < len(rounds) && rounds[j+1] == rounds[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", rounds[i], rounds[j]))
		} else {
			parts = append(parts, strconv.Itoa(rounds[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func formatPoints(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
