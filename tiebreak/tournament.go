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
}
