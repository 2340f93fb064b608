package tiebreak

// ljvStage returns the stage-one plus stage-two value of a played game: the result and
// colour value plus trunc((opponent's rating − own rating) / 100), truncated toward
// zero. pts is the result in half-points; a game with unknown colour takes White's
// values.
func ljvStage(o LJVOptions, pts int, color byte, own, opp int) int {
	black := color == 'b'
	var v int
	switch {
	case pts == 2 && black:
		v = o.WinBlack
	case pts == 2:
		v = o.WinWhite
	case pts == 1 && black:
		v = o.DrawBlack
	case pts == 1:
		v = o.DrawWhite
	case black:
		v = o.LossBlack
	default:
		v = o.LossWhite
	}
	return v + (opp-own)/100 // Go's integer division truncates toward zero
}

// ljv computes the Lajevardi-zadeh tiebreak of player i in tenths of a point.
// mult holds every player's final score with unplayed rounds counted as draws
// (half-points).
func ljv(m *model, o LJVOptions, mult []int, i, cut, median int) int {
	rating := func(j int) int {
		if r := m.t.Players[j].Rating; r > 0 {
			return r
		}
		return o.BaseRating
	}
	own := m.score[i]
	its := make([]item, 0, len(m.slots[i]))
	for _, s := range m.slots[i] {
		var it item
		switch {
		case s.otb:
			it.val = mult[s.opp]
			it.contrib = ljvStage(o, halfPoints(s.code), s.color, rating(i), rating(s.opp)) * mult[s.opp]
		case s.code == '+':
			it.val = own
			if s.opp >= 0 {
				it.val = mult[s.opp]
			}
			it.contrib = o.ForfeitWin * it.val
		case s.code == 'U' || s.code == 'F' || s.code == 'H':
			// A draw with Black against an opponent of the player's own score and rating.
			it.val = own
			it.contrib = o.DrawBlack * own
		default: // '-' and 'Z': value 0, the round cut first
			it.val = own
			if s.opp >= 0 {
				it.val = mult[s.opp]
			}
			it.vur = true
		}
		its = append(its, it)
	}
	sum := 0 // half-points
	for _, it := range trim(its, cut, median, true, false) {
		sum += it.contrib
	}
	tenths := 5 * sum
	if o.AddTPR {
		var rs []int
		score := 0
		for _, s := range m.slots[i] {
			if s.otb {
				rs = append(rs, rating(s.opp))
				score += halfPoints(s.code)
			}
		}
		if tpr, ok := performance(rs, score); ok {
			tenths += tpr
		}
	}
	return tenths
}
