package tiebreak

import (
	"fmt"
	"strings"
	"time"
)

// Policy names the rules for unplayed rounds (byes, forfeits, absences).
type Policy string

// The three unplayed-game policies.
const (
	// Fide2009 is the 2009–2022 rule: a player's own unplayed round is a game against
	// a virtual opponent (docs/tiebreaks.md); opponents' unplayed rounds count as draws.
	Fide2009 Policy = "fide2009"
	// Fide2023 is C.07 (2023/2024) art. 16: own unplayed round = dummy opponent with the
	// player's own final score; opponents' rounds at face value except byes and
	// absences after their last round of availability, which count as draws; cuts
	// remove voluntarily unplayed rounds first.
	Fide2023 Policy = "fide2023"
	// Fide2026 is Fide2023 with the 1 March 2026 cap on the dummy opponent's score.
	Fide2026 Policy = "fide2026"
)

var (
	fide2023Start = time.Date(2023, time.July, 1, 0, 0, 0, 0, time.UTC)
	fide2026Start = time.Date(2026, time.March, 1, 0, 0, 0, 0, time.UTC)
)

// PolicyAt returns the policy in force on the given start date: Fide2009 before
// 1 July 2023, Fide2023 until 28 February 2026, Fide2026 from 1 March 2026. A zero date
// (unknown) gives the newest policy.
func PolicyAt(start time.Time) Policy {
	switch {
	case start.IsZero():
		return Fide2026
	case start.Before(fide2023Start):
		return Fide2009
	case start.Before(fide2026Start):
		return Fide2023
	default:
		return Fide2026
	}
}

// ParsePolicy checks a policy name (case-insensitive). The empty string is returned as
// is and means "by the tournament's start date".
func ParsePolicy(s string) (Policy, error) {
	p := Policy(strings.ToLower(strings.TrimSpace(s)))
	switch p {
	case "", Fide2009, Fide2023, Fide2026:
		return p, nil
	}
	return "", fmt.Errorf("%q: %w", s, ErrUnknownPolicy)
}
