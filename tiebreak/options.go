package tiebreak

import "fmt"

// Options are the settings of a standings computation. The zero value is usable: every
// zero field means its documented default. Options are read, never written, so one
// value may be shared by concurrent Standings calls.
type Options struct {
	// Unplayed picks the unplayed-game policy; "" = the policy in force at the
	// tournament's start date (PolicyAt).
	Unplayed Policy `toml:"unplayed"`
	// AfterRound computes standings after that round (rounds after it are ignored and
	// the fide2009 virtual opponent draws only up to it); 0 = all rounds.
	AfterRound int `toml:"after_round"`
	// ForfeitsPlayed counts forfeits with a known opponent as games for every
	// tiebreak, the codes defined over the board included. Round robins (Tournament.System
	// "round-robin", "rr", "berger") count them as games against the scheduled opponent
	// for DE, BH, FB, SB, KS, PS and WIN only (C.07 art. 15); the /P modifier turns
	// this on for one code.
	ForfeitsPlayed bool `toml:"forfeits_played"`
	// UnratedRating is the rating given to unrated players in the rating-based FIDE
	// tiebreaks (ARO, TPR, PTP, APRO, APPO). 0 (default, C.07 art. 10): when a
	// tournament has an unrated player, those tiebreaks are undefined for every player.
	UnratedRating int `toml:"unrated_rating"`

	LJV      LJVOptions      `toml:"ljv"`
	Scrabble ScrabbleOptions `toml:"scrabble"`
}

// LJVOptions are the settings of the Lajevardi-zadeh tiebreak (docs/tiebreaks.md).
type LJVOptions struct {
	// Stage-one values by result and colour. All six zero = the seed's values
	// 9 10 4 5 1 2.
	WinWhite  int `toml:"win_white"`
	WinBlack  int `toml:"win_black"`
	DrawWhite int `toml:"draw_white"`
	DrawBlack int `toml:"draw_black"`
	LossWhite int `toml:"loss_white"`
	LossBlack int `toml:"loss_black"`
	// ForfeitWin is the value of a forfeit win (opponent did not come); 0 = 3.
	ForfeitWin int `toml:"forfeit_win"`
	// NoForfeitBonus turns the seed's optional forfeit-win value off: a forfeit win
	// then counts 0, like the player's own forfeit loss.
	NoForfeitBonus bool `toml:"no_forfeit_bonus"`
	// BaseRating is used for unrated players; 0 = 1600.
	BaseRating int `toml:"base_rating"`
	// AddTPR adds one tenth of the player's TPR (unrated players at BaseRating).
	AddTPR bool `toml:"add_tpr"`
}

// Coefficients are TurČAS's A, B, C, D.
type Coefficients struct {
	A float64 `toml:"a"`
	B float64 `toml:"b"`
	C float64 `toml:"c"`
	D float64 `toml:"d"`
}

// ScrabbleOptions are the settings of TURCAS, SPREAD and SCORE (docs/tiebreaks.md).
type ScrabbleOptions struct {
	// ByeSpread is the spread credited for a bye or forfeit win (and debited for a
	// forfeit loss); 0 = 50 (NASPA/tsh). NoByeSpread credits nothing.
	ByeSpread   int  `toml:"bye_spread"`
	NoByeSpread bool `toml:"no_bye_spread"`
	// Coefficients used when no set is selected; all zero = A 1, B C D 0 (TurČAS is
	// then Buchholz / rounds). Calibrate an archive to get real values.
	Coefficients Coefficients `toml:"coefficients"`
	// Set selects a named set from Sets; Tournament.TurCAS, when not empty, wins.
	Set  string                  `toml:"set"`
	Sets map[string]Coefficients `toml:"sets"`
}

// Check reports the first impossible setting, naming its key as a rules file
// spells it, so that a typo stops a run before any work instead of failing its
// first standings.
func (o Options) Check() error {
	if _, err := ParsePolicy(string(o.Unplayed)); err != nil {
		return fmt.Errorf("tiebreaks.unplayed = %q: want fide2009, fide2023, fide2026 or \"\" (by the start date)", o.Unplayed)
	}
	for _, v := range []struct {
		key string
		val int
	}{
		{"after_round", o.AfterRound},
		{"unrated_rating", o.UnratedRating},
		{"ljv.base_rating", o.LJV.BaseRating},
		{"scrabble.bye_spread", o.Scrabble.ByeSpread},
	} {
		if v.val < 0 {
			return fmt.Errorf("tiebreaks.%s = %d: want ≥ 0", v.key, v.val)
		}
	}
	if s := o.Scrabble.Set; s != "" {
		if _, ok := o.Scrabble.Sets[s]; !ok {
			return fmt.Errorf("tiebreaks.scrabble.set = %q: no such set under tiebreaks.scrabble.sets", s)
		}
	}
	return nil
}

func (o LJVOptions) withDefaults() LJVOptions {
	if o.WinWhite == 0 && o.WinBlack == 0 && o.DrawWhite == 0 && o.DrawBlack == 0 && o.LossWhite == 0 && o.LossBlack == 0 {
		o.WinWhite, o.WinBlack, o.DrawWhite, o.DrawBlack, o.LossWhite, o.LossBlack = 9, 10, 4, 5, 1, 2
	}
	if o.ForfeitWin == 0 {
		o.ForfeitWin = 3
	}
	if o.NoForfeitBonus {
		o.ForfeitWin = 0
	}
	if o.BaseRating == 0 {
		o.BaseRating = 1600
	}
	return o
}

func (o ScrabbleOptions) byeSpread() int {
	switch {
	case o.NoByeSpread:
		return 0
	case o.ByeSpread == 0:
		return 50
	}
	return o.ByeSpread
}
