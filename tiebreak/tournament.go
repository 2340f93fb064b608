package tiebreak

import "time"

// Result codes are FIDE TRF bytes: '1' '=' '0' played; '+' '-' forfeit win/loss;
// 'W' 'D' 'L' played but unrated; 'H' 'F' 'U' 'Z' byes. A round with no game for a
// player is treated as 'Z'.

// Player is one participant of a tournament.
type Player struct {
	ID      int64
	StartNo int // starting rank (pairing number), 1-based
	Name    string
	Rating  int // rating when the tournament started; 0 = unrated
}

// Game is one pairing or bye. White and Black index Tournament.Players; Black is -1
// for a bye (then BlackResult is 0).
type Game struct {
	Round                    int // 1-based
	White, Black             int
	WhiteResult, BlackResult byte
	WhitePoints, BlackPoints int32 // Scrabble game points (valid when HasPoints)
	HasPoints                bool
}

// Tournament is everything a standings computation needs, as plain values.
type Tournament struct {
	ID         int64
	Name       string
	Start, End time.Time
	Rounds     int
	System     string // "swiss", "round-robin", ...
	Discipline string // "chess", "scrabble", "joker"
	Tiebreaks  string // the archive's tiebreaks column, e.g. "BH/C1,BH,SB"; may be empty
	TurCAS     string // name of the TurČAS coefficient set (Options.Scrabble.Sets); may be empty
	Players    []Player
	Games      []Game
	// Points is the point system; nil is the standard one (StandardPoints).
	Points *PointSystem
	// Adjustments change players' points beyond what their results score.
	Adjustments []Adjustment
}

// PointSystem is what each result code scores, in half-points: the standard system
// is a win 2, a draw 1, a loss 0. The rating-based codes (ARO, TPR, PTP, APRO, APPO)
// and LJV's result values use the game results 1, ½, 0 whatever the system.
type PointSystem struct {
	Win, Draw, Loss         int // a game played, rated or not: 1 = 0 (W D L)
	ForfeitWin, ForfeitLoss int // + -
	FullBye, HalfBye        int // F H (requested byes)
	ZeroBye                 int // Z, and a round without a game
	PAB                     int // U, the pairing-allocated bye
}

// StandardPoints is the 1–½–0 system with byes scored by their names.
func StandardPoints() PointSystem {
	return PointSystem{Win: 2, Draw: 1, ForfeitWin: 2, FullBye: 2, HalfBye: 1, PAB: 2}
}

// Score is what a result code (upper case; 'Z' for a round without a game) scores.
func (p PointSystem) Score(code byte) int {
	switch code {
	case '1', 'W':
		return p.Win
	case '=', 'D':
		return p.Draw
	case '0', 'L':
		return p.Loss
	case '+':
		return p.ForfeitWin
	case '-':
		return p.ForfeitLoss
	case 'F':
		return p.FullBye
	case 'H':
		return p.HalfBye
	case 'U':
		return p.PAB
	}
	return p.ZeroBye
}

// Adjustment adds points to a player's score: a bonus, a penalty, or the difference
// between the points a round really gave and what its result scores.
type Adjustment struct {
	Player int // index into Players
	Round  int // 1-based; 0 = the whole tournament, in no round
	Points int // half-points, negative for a penalty
}

// IsRoundRobin reports whether a system name (Tournament.System) is read as a
// round robin: "round-robin", "round robin", "rr", "berger" and the like.
func IsRoundRobin(system string) bool { return isRoundRobin(system) }
