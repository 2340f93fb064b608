package tiebreak

import "errors"

// Sentinel errors. Callers test them with errors.Is; the returned errors wrap them with
// the offending code, game or player.
var (
	// ErrUnknownCode is returned for a tiebreak code that is not in the catalogue.
	ErrUnknownCode = errors.New("unknown tiebreak code")
	// ErrBadModifier is returned for a modifier (/C1, /M2, /L1, /P) that the code does
	// not take or that is malformed.
	ErrBadModifier = errors.New("bad tiebreak modifier")
	// ErrUnknownPolicy is returned for an unplayed-game policy name other than
	// fide2009, fide2023 and fide2026.
	ErrUnknownPolicy = errors.New("unknown unplayed-game policy")
	// ErrBadGame is returned for a game that refers to a missing player or round, uses
	// an unknown result code, or puts a player twice into one round.
	ErrBadGame = errors.New("bad game")
	// ErrUnknownCoefficientSet is returned when a TurČAS coefficient set name is not
	// among Options.Scrabble.Sets.
	ErrUnknownCoefficientSet = errors.New("unknown TurČAS coefficient set")
	// ErrNoData is returned by the calibration when it saw no usable games.
	ErrNoData = errors.New("no Scrabble games with points")
)
