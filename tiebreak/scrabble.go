package tiebreak

import (
	"fmt"
	"math/big"
	"strconv"
)

// scrabbleTotals returns AbsSkore, RelSkore (spread) and Zacinani of player i.
// Byes and forfeit wins add spread, forfeit losses subtract it; neither adds to
// AbsSkore.
func scrabbleTotals(slots []slot, byeSpread int) (abs, rel, zac int) {
	for _, s := range slots {
		if s.otb {
			if s.hasPts {
				abs += int(s.gp)
				rel += int(s.gp) - int(s.op)
			}
			switch s.color {
			case 'w':
				zac-- // started
			case 'b':
				zac++
			}
			continue
		}
		switch s.code {
		case 'U', 'F', '+':
			rel += byeSpread
		case '-':
			rel -= byeSpread
		}
	}
	return abs, rel, zac
}

// coefficients picks the TurČAS coefficients for t: the tournament's named set, else
// the options' named set, else the options' coefficients, else A = 1.
func coefficients(t *Tournament, o ScrabbleOptions) (Coefficients, error) {
	name := t.TurCAS
	if name == "" {
		name = o.Set
	}
	if name != "" {
		c, ok := o.Sets[name]
		if !ok {
			return Coefficients{}, fmt.Errorf("%q: %w", name, ErrUnknownCoefficientSet)
		}
		return c, nil
	}
	if o.Coefficients == (Coefficients{}) {
		return Coefficients{A: 1}, nil
	}
	return o.Coefficients, nil
}

// turcas computes A/Kol·BH + B·Abs + C·Rel + D·Zacinani exactly and rounds it half
// up (toward +∞) to 4 decimals. bh is the Buchholz of wins in half-points (fide2009
// rules). The coefficients are taken as the decimals they print as (0.003, not the
// float nearest to it), so that exact ties round the same way every time.
func turcas(c Coefficients, kol, bh, abs, rel, zac int) float64 {
	v := new(big.Rat)
	if kol > 0 {
		v.Mul(decimal(c.A), big.NewRat(int64(bh), int64(2*kol)))
	}
	for _, t := range []struct {
		c float64
		n int
	}{{c.B, abs}, {c.C, rel}, {c.D, zac}} {
		v.Add(v, new(big.Rat).Mul(decimal(t.c), big.NewRat(int64(t.n), 1)))
	}
	// floor(v·10⁴ + ½) / 10⁴
	v.Mul(v, big.NewRat(10000, 1)).Add(v, big.NewRat(1, 2))
	q := new(big.Int).Div(v.Num(), v.Denom()) // Euclidean: floor for a positive denominator
	f, _ := new(big.Rat).SetFrac(q, big.NewInt(10000)).Float64()
	if f == 0 {
		return 0 // no "-0"
	}
	return f
}

// decimal is x as the shortest decimal that prints as x, exactly.
func decimal(x float64) *big.Rat {
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
	if !ok {
		return new(big.Rat)
	}
	return r
}

// Calibration is the result of Calibrate: the statistics used and the coefficients.
type Calibration struct {
	A, B, C, D  float64
	MeanBH      float64 // b: mean over players of Buchholz / rounds
	MeanAbs     float64 // a: mean AbsSkore per player and tournament
	MeanRel     float64 // r: mean |RelSkore| per player and tournament
	Delta       float64 // δ: mean of starter's points − other's points per game
	Games       int     // games with points used
	Players     int     // player-tournament samples
	Tournaments int     // tournaments with at least one game with points
}

// Calibrator accumulates the statistics of Calibrate one tournament at a time, so a
// caller can stream an archive. It is not safe for concurrent use.
type Calibrator struct {
	opt                 Options
	sumBH               float64 // Σ BH/Kol
	sumAbs, sumRel      int64
	sumDelta            int64
	games, players, nts int
}

// NewCalibrator returns an empty Calibrator. Only opt.Scrabble's bye settings are
// irrelevant here: AbsSkore and RelSkore are taken from games with points only.
func NewCalibrator(opt Options) *Calibrator { return &Calibrator{opt: opt} }

// Add adds one tournament's two-player games with points. Tournaments without such
// games are skipped.
func (c *Calibrator) Add(t *Tournament) error {
	any := false
	for _, g := range t.Games {
		if g.HasPoints && g.Black >= 0 {
			any = true
			break
		}
	}
	if !any {
		return nil
	}
	m, err := newModel(t, Options{})
	if err != nil {
		return fmt.Errorf("tournament %d: %w", t.ID, err)
	}
	// BH/Kol as in TURCAS: round robins count forfeits as played (C.07 art. 15).
	cc := newCalc(m, Fide2009, m.rr || c.opt.ForfeitsPlayed, m.score)
	kol := m.n
	c.nts++
	for i, row := range m.slots {
		n, abs, rel := 0, 0, 0
		for _, s := range row {
			if s.otb && s.hasPts {
				n++
				abs += int(s.gp)
				rel += int(s.gp) - int(s.op)
				if s.color == 'w' {
					c.sumDelta += int64(s.gp) - int64(s.op)
					c.games++
				}
			}
		}
		if n == 0 {
			continue
		}
		c.players++
		c.sumBH += float64(cc.buchholz(i, 0, 0)) / 2 / float64(kol)
		c.sumAbs += int64(abs)
		if rel < 0 {
			rel = -rel
		}
		c.sumRel += int64(rel)
	}
	return nil
}

// Result computes the coefficients: A = 1, B = b/(2a), C = b/(2r),
// D = C·δ + B·δ/2 (docs/tiebreaks.md, TurČAS).
func (c *Calibrator) Result() (Calibration, error) {
	if c.players == 0 || c.games == 0 {
		return Calibration{}, ErrNoData
	}
	k := Calibration{
		MeanBH:      c.sumBH / float64(c.players),
		MeanAbs:     float64(c.sumAbs) / float64(c.players),
		MeanRel:     float64(c.sumRel) / float64(c.players),
		Delta:       float64(c.sumDelta) / float64(c.games),
		Games:       c.games,
		Players:     c.players,
		Tournaments: c.nts,
	}
	if k.MeanAbs == 0 || k.MeanRel == 0 {
		return k, fmt.Errorf("mean absolute score %g, mean |spread| %g: %w", k.MeanAbs, k.MeanRel, ErrNoData)
	}
	k.A = 1
	k.B = k.MeanBH / (2 * k.MeanAbs)
	k.C = k.MeanBH / (2 * k.MeanRel)
	k.D = k.C*k.Delta + k.B*k.Delta/2
	return k, nil
}

// Calibrate runs a Calibrator over the given tournaments.
func Calibrate(ts []*Tournament, opt Options) (Calibration, error) {
	c := NewCalibrator(opt)
	for _, t := range ts {
		if err := c.Add(t); err != nil {
			return Calibration{}, err
		}
	}
	return c.Result()
}
