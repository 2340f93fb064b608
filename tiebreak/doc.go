// Package tiebreak computes final standings of a tournament with tiebreak columns: the
// FIDE C.07 family (BH, FB, AOB, SB, KS, PS, DE, WIN, WON, BPG, BWG, REP, ARO, TPR,
// PTP, APRO, APPO, with /Cn, /Mn, /Ln and /P modifiers), the seeds' Lajevardi-zadeh
// tiebreak (LJV, LJV/C1, LJV/M1) and the Czech Scrabble tiebreaks (TURCAS, SPREAD,
// SCORE), under three unplayed-game policies (fide2009, fide2023, fide2026).
//
// It is a pure library: its input is a *Tournament of plain values, its output plain
// values ([]Row, Calibration); it does no I/O beyond writing to an io.Writer and starts
// no goroutines. Standings may be called concurrently for different tournaments; a
// batch job that ranks many tournaments keeps one Engine per goroutine instead, which
// reuses its memory from one tournament to the next.
//
// The steps of Standings are:
//
//  1. Parse the codes (ParseCode): base acronym plus modifiers, GE read as REP.
//  2. Lay the games out per player and round (a round without a game is 'Z'), check
//     them, and compute final scores in half-points by the tournament's point system
//     (1–½–0 when it has none) and its point adjustments.
//  3. Pick the unplayed-game policy: Options.Unplayed, else PolicyAt(start date).
//     Round robins (and /P) count forfeits as played games.
//  4. Compute each code's value for every player with integer arithmetic (half-,
//     quarter- or tenth-points) and convert to Value once; averages and ratings are
//     rounded half up as documented per code (docs/tiebreaks.md).
//  5. Rank by points, then split each tie group by the codes in order; DE is
//     evaluated inside the tie group it has to break.
//  6. Write the rows with WriteCSV, AppendCSV (Engine.CSV) or WriteText.
//
// TeamStandings ranks the teams of a team competition (TeamTournament: the teams and
// the individual games) by match or game points and the C.07 team codes (MPvGP, WIN,
// WON, PS, BH, FB, AOB with :MP or :GP, EMMSB, EMGSB, EGMSB, EGGSB, SSSC, BC, DE,
// EDE, TBR, BBE): Matches infers every team's match of each round from which
// teams' players met, and the codes are the individual computations run on a model
// whose players are the teams and whose games are the matches.
//
// Calibrate (or a streaming Calibrator) derives TurČAS coefficients from past games.
package tiebreak
