package report

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Chart colours of the histogram (site.js draws the other charts, in the
// colours of assets/style.css). The bar colour is used by nothing else in a
// chart, so a test can count its bars by it.
var (
	barColor    = color.RGBA{R: 0x5b, G: 0x8f, B: 0xc9, A: 0xff}
	gridColor   = color.RGBA{R: 0xdd, G: 0xe3, B: 0xea, A: 0xff}
	textColor   = color.RGBA{R: 0x33, G: 0x3d, B: 0x47, A: 0xff}
	chartFont   = font.Font{Typeface: "Liberation", Variant: "Sans"}
	chartWidth  = 720 * vg.Length(0.75) // 720 CSS px in points
	chartHeight = 280 * vg.Length(0.75)
)

// BarFill is the SVG fill style of a histogram's bars (one SVG path each).
var BarFill = svgFill(barColor)

func svgFill(c color.RGBA) string { return fmt.Sprintf("fill:#%02X%02X%02X", c.R, c.G, c.B) }

func newPlot() *plot.Plot {
	p := plot.New()
	p.BackgroundColor = color.Transparent
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = chartFont
		a.Label.TextStyle.Color = textColor
		a.Tick.Label.Font = chartFont
		a.Tick.Label.Font.Size = vg.Points(9)
		a.Tick.Label.Color = textColor
		a.Color = textColor
		a.Tick.Color = textColor
	}
	g := plotter.NewGrid()
	g.Vertical.Color = gridColor
	g.Horizontal.Color = gridColor
	p.Add(g)
	return p
}

// histogram draws the rating distribution in bins of width w.
func histogram(title string, ratings []int, w int) (template.HTML, int, error) {
	if len(ratings) == 0 {
		return "", 0, nil
	}
	lo, hi := ratings[0], ratings[0]
	for _, r := range ratings {
		lo, hi = min(lo, r), max(hi, r)
	}
	lo = floorDiv(lo, w) * w
	n := floorDiv(hi, w) - lo/w + 1
	bins := make([]plotter.HistogramBin, n)
	for i := range bins {
		bins[i].Min = float64(lo + i*w)
		bins[i].Max = float64(lo + (i+1)*w)
	}
	for _, r := range ratings {
		bins[(r-lo)/w].Weight++
	}
	// Only non-empty bins become bars: one SVG path each.
	var full []plotter.HistogramBin
	for _, b := range bins {
		if b.Weight > 0 {
			full = append(full, b)
		}
	}
	bars := len(full)
	p := newPlot()
	p.Y.Label.Text = "Players"
	p.X.Label.Text = "Rating"
	h := &plotter.Histogram{Bins: full, Width: float64(w), FillColor: barColor}
	h.LineStyle.Color = color.White
	h.LineStyle.Width = vg.Points(0.6)
	p.Add(h)
	p.X.Min, p.X.Max = float64(lo), float64(lo+n*w)
	p.Y.Min = 0
	svg, err := render(p, title)
	return svg, bars, err
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// render writes p as an inline SVG element with a <title> for screen readers.
func render(p *plot.Plot, title string) (template.HTML, error) {
	c := vgsvg.New(chartWidth, chartHeight)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", err
	}
	s := buf.String()
	i := strings.Index(s, "<svg")
	if i < 0 {
		return "", fmt.Errorf("chart %q: no <svg> element", title)
	}
	s = s[i:]
	j := strings.IndexByte(s, '>')
	var b strings.Builder
	b.WriteString(`<svg class="chart" role="img" aria-label="`)
	template.HTMLEscape(&b, []byte(title))
	b.WriteString(`"`)
	b.WriteString(s[len("<svg"):j])
	b.WriteString("><title>")
	template.HTMLEscape(&b, []byte(title))
	b.WriteString("</title>")
	b.WriteString(s[j+1:])
	return template.HTML(strings.TrimSpace(b.String())), nil
}

// Line charts (a player's rating history, a table rule set's rating by game)
// are drawn here as small inline SVG, in the colours of assets/style.css: the
// line as one path, and a minimal axis, the lowest and the highest value at
// their heights. The title names the first and last points; the table
// beside each chart has every number. Every player's page has a chart, so
// there is no grid, no dot per point (a marker, referenced by a URL, which
// the page's base would redirect).
const (
	lineW, lineH                       = 720, 240
	lineL, lineR, lineT, lineB         = 52, 14, 10, 10
	lineInnerW, lineInnerH             = lineW - lineL - lineR, lineH - lineT - lineB
	minLineSpan                float64 = 40
)

// minChartPoints is the fewest points a player's rating chart has.
const minChartPoints = 3

// appendLineChart appends an SVG chart of the points (xs[i], ys[i]), xs
// increasing, labelled label.
func appendLineChart(b []byte, label string, xs, ys []float64) []byte {
	x0, x1 := xs[0], xs[len(xs)-1]
	if x1 == x0 {
		x0, x1 = x0-1, x1+1
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, y := range ys {
		lo, hi = math.Min(lo, y), math.Max(hi, y)
	}
	pad := math.Max(minLineSpan-(hi-lo), 0)/2 + (hi-lo)*0.08
	y0, y1 := math.Floor((lo-pad)/10)*10, math.Ceil((hi+pad)/10)*10
	X := func(v float64) float64 { return lineL + (v-x0)/(x1-x0)*lineInnerW }
	Y := func(v float64) float64 { return lineT + (y1-v)/(y1-y0)*lineInnerH }
	// Quoted attributes: the chart stays well-formed XML (an SVG file).
	b = fmt.Appendf(b, "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 %d %d\"><title>", lineW, lineH)
	b = appendEsc(b, label)
	b = fmt.Appendf(b, "</title><g text-anchor=\"end\"><text x=\"%d\" y=\"%.0f\">%g</text>", lineL-6, Y(hi)+4, hi)
	if lo != hi {
		b = fmt.Appendf(b, "<text x=\"%d\" y=\"%.0f\">%g</text>", lineL-6, Y(lo)+4, lo)
	}
	b = append(b, "</g><path class=\"line\" d=\"M"...) // the points after the first are lines to them
	for i := range xs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = fmt.Appendf(b, "%.0f %.0f", X(xs[i]), Y(ys[i]))
	}
	return append(b, "\"/></svg>"...)
}
