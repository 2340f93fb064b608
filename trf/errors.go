package trf

import (
	"errors"
	"fmt"
)

// Sentinel errors, wrapped in a *SyntaxError (an error, or a warning in File.Warnings).
var (
	// ErrField is a field that does not hold what its columns must hold.
	ErrField = errors.New("malformed field")
	// ErrDuplicatePlayer is a starting rank used by two 001 records.
	ErrDuplicatePlayer = errors.New("duplicate starting rank")
	// ErrUnknownOpponent is a round naming a starting rank that has no 001 record.
	ErrUnknownOpponent = errors.New("opponent not in file")
	// ErrPairing is a round whose two players' records do not agree.
	ErrPairing = errors.New("pairing records disagree")
	// ErrNoPlayers is a file without 001 records.
	ErrNoPlayers = errors.New("no player records")
	// ErrPoints is points the standings cannot count: a value in a point system
	// (162, XXS) or an abnormal points assignment (299) that is not a whole or half
	// point, a result scored differently with White and Black, or a 299 assignment
	// its round cannot hold (a bye against an opponent, a result in no round, a
	// round after the last).
	ErrPoints = errors.New("points the standings cannot score")
	// ErrStartDate and ErrEndDate are 042/052 dates in no known form; they are
	// warnings (File.Warnings), never a reason to refuse a file.
	ErrStartDate = errors.New("start date (042) not understood")
	ErrEndDate   = errors.New("end date (052) not understood")
)

// Notes: how the reader read something a file leaves open; in File.Warnings, never a
// reason to refuse a file.
var (
	// ErrNotUTF8 is a file that is not UTF-8: it is read as Windows-1252.
	ErrNotUTF8 = errors.New("not UTF-8: read as Windows-1252 (Latin-1)")
	// ErrAmbiguousDate is a header date that fits two forms (10.09.13), settled by
	// the other dates of the file, or a start date taken from the round dates of
	// 132: the note says which and why.
	ErrAmbiguousDate = errors.New("date chosen")
	// ErrEmptyResult is a round without opponent and result: it is the bye the
	// player's points column implies, or a zero-point bye when nothing implies one.
	ErrEmptyResult = errors.New("empty result")
	// ErrTeam is a team record (013, 310) that is not understood: the team is
	// left out, the individual games are read.
	ErrTeam = errors.New("team record not understood")
	// ErrNoTeams is a file asked for team standings that has no team records.
	ErrNoTeams = errors.New("no team records (013 or 310)")
)

// SyntaxError is a problem at a position of a TRF file. Column is 1-based and counts
// characters; 0 when the whole record is concerned.
type SyntaxError struct {
	File   string
	Line   int
	Column int
	Err    error
}

func (e *SyntaxError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

func (e *SyntaxError) Unwrap() error { return e.Err }
