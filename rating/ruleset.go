package rating

// RuleSet is what the pipeline drives, whatever the rating system. The school
// system rates tournament by tournament (Rate does the work, ClosePeriod
// nothing); FIDE rates a whole period at once against the period's starting list
// (Rate gathers the games, ClosePeriod computes and applies the changes).
//
// The pipeline calls, in order: for each list period, Rate for every tournament
// whose ListDay falls in that period (in rating order), then ClosePeriod, then
// ListInfo for every player to write the list.
type RuleSet interface {
	// ListDay maps a tournament's end date (days since 1970-01-01) to a day in
	// the period of the list that first takes it in.
	ListDay(end int32) int32
	// Rate takes one tournament; the returned cards are the audit rows it
	// produced now (the slice may be reused by the next call).
	Rate(st *State, ev *Event) []Card
	// ClosePeriod ends the period whose list is about to be written: first is
	// the period's first day, last its last day. It hands the audit rows it
	// produces to emit, in player order, a slice at a time (emit must not keep
	// the slice), and returns emit's first error.
	ClosePeriod(st *State, first, last int32, emit func([]Card) error) error
	// ListInfo tells whether player p is on the list now, with the K for their
	// next games, their category band and extra flags (e.g. "i"). The pipeline
	// asks only for rated players (st.Rated[p]): nobody unrated is listed.
	ListInfo(st *State, p int32) (listed bool, k int32, category, flags string)
}

// ListDay: the school list as of a period's last day takes in every tournament
// that ended in the period.
func (r *SchoolRater) ListDay(end int32) int32 { return end }

// ClosePeriod: the school system applies changes tournament by tournament, so
// nothing is left to do at a period's end.
func (r *SchoolRater) ClosePeriod(st *State, first, last int32, emit func([]Card) error) error {
	return nil
}

// ListInfo: listed after ListGames rated games (§1 Method 5), K for the next
// tournament, the category band of §3.1.
func (r *SchoolRater) ListInfo(st *State, p int32) (bool, int32, string, string) {
	s := &r.S
	if !st.Rated[p] || st.GamesTotal[p] < s.ListGames {
		return false, 0, "", ""
	}
	return true, s.K(st.Tournaments[p], st.GamesTotal[p], st.Rating[p]), s.Category(st.Rating[p]), ""
}
