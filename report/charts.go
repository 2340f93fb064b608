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
// are drawn here as small inline SVG, in the colours of assets/style.css: a
// grid at round values, the first and last points' labels below, and the line
// with a dot at each point (an SVG marker, so that a point costs only its
// coordinates). The table beside each chart has every number.
const (
	lineW, lineH                       = 720, 240
	lineL, lineR, lineT, lineB         = 52, 14, 10, 26
	lineInnerW, lineInnerH             = lineW - lineL - lineR, lineH - lineT - lineB
	minLineSpan                float64 = 40
)

// appendLineChart appends an SVG chart of the points (xs[i], ys[i]), xs
// increasing, labelled label; xText labels an x value, id names the dot. The
// y axis is not labelled (the third argument): the label and the caption
// name it.
func appendLineChart(b []byte, id, label, _ string, xs, ys []float64, xText func(float64) string) []byte {
	x0, x1 := xs[0], xs[len(xs)-1]
	if x1 == x0 {
		x0, x1 = x0-1, x1+1
	}
	y0, y1 := math.Inf(1), math.Inf(-1)
	for _, y := range ys {
		y0, y1 = math.Min(y0, y), math.Max(y1, y)
	}
	pad := math.Max(minLineSpan-(y1-y0), 0)/2 + (y1-y0)*0.08
	y0, y1 = math.Floor((y0-pad)/10)*10, math.Ceil((y1+pad)/10)*10
	X := func(v float64) float64 { return lineL + (v-x0)/(x1-x0)*lineInnerW }
	Y := func(v float64) float64 { return lineT + (y1-v)/(y1-y0)*lineInnerH }
	b = fmt.Appendf(b, "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 %d %d\"><title>", lineW, lineH)
	b = appendEsc(b, label)
	// Every player's page has a chart: its frame is kept short (the ticks
	// right-aligned by one group, the dots by the marker property).
	b = fmt.Appendf(b, "</title><defs><marker id=\"%s\" viewBox=\"-4 -4 8 8\" markerWidth=\"7\" markerHeight=\"7\"><circle r=\"4\"/></marker></defs>\n<path class=\"grid\" d=\"", id)
	step := niceStep(y1-y0, 4)
	var ticks []byte
	for v := math.Ceil(y0/step) * step; v <= y1; v += step {
		b = fmt.Appendf(b, "M%d %.0fH%d", lineL, Y(v), lineW-lineR)
		ticks = fmt.Appendf(ticks, "<text x=\"%d\" y=\"%.0f\">%g</text>", lineL-6, Y(v)+4, v)
	}
	b = append(b, "\"/><g text-anchor=\"end\">"...) // the chart's box frames it
	b = append(b, ticks...)
	b = fmt.Appendf(b, "<text x=\"%d\" y=\"%d\">", lineW-lineR, lineH-6)
	b = appendEsc(b, xText(xs[len(xs)-1]))
	b = fmt.Appendf(b, "</text></g><text x=\"%d\" y=\"%d\">", lineL, lineH-6)
	b = appendEsc(b, xText(xs[0]))
	b = fmt.Appendf(b, "</text>\n<polyline class=\"line\" style=\"marker:url(#%s)\" points=\"", id)
	for i := range xs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = fmt.Appendf(b, "%.0f,%.0f", X(xs[i]), Y(ys[i]))
	}
	return append(b, "\"/></svg>\n"...)
}

// niceStep returns a round step that cuts span into about n parts.
func niceStep(span float64, n int) float64 {
	raw := span / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	switch m := raw / p; {
	case m <= 1:
		return p
	case m <= 2:
		return 2 * p
	case m <= 5:
		return 5 * p
	}
	return 10 * p
}
