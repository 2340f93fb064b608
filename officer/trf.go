package officer

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"slices"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/pipeline"
	"github.com/ratelist/ratelist/tiebreak"
	"github.com/ratelist/ratelist/trf"
)

// ExportTRF writes tournament id of the archive in fsys as a TRF file of
// version v. Each 001 record carries the player's rating at the start as the
// run computes it (the rating of the last list before the tournament); a
// player unrated then (a newcomer's first events) gets the players table's
// fide_rating, and stays blank without one. With fideRatings, every player
// gets the fide_rating. Sex, title, federation, FIDE id and birth date come
// from the players table; points and rank are the final standings by the
// tournament's tiebreaks (the default ones when it names none), with the
// ratings the file carries. It returns how many players it left without a
// rating.
func ExportTRF(ctx context.Context, w io.Writer, fsys fs.FS, id int64, v trf.Version, fideRatings bool) (blank int, err error) {
	t, err := pipeline.LoadTournamentFS(ctx, fsys, id)
	if err != nil {
		return 0, err
	}
	players, err := ReadPlayers(fsys)
	if err != nil {
		return 0, err
	}
	t.Players = slices.Clone(t.Players)
	for i, p := range t.Players {
		if fideRatings || p.Rating == 0 {
			t.Players[i].Rating = int(players[p.ID].FideRating)
		}
		if t.Players[i].Rating == 0 {
			blank++
		}
	}
	return blank, WriteTRF(w, t, players, v)
}

// WriteTRF writes tournament t as ExportTRF does, with the players table
// players (keyed by player_id; nil or a missing player leaves the fields blank).
func WriteTRF(w io.Writer, t *tiebreak.Tournament, players map[int64]Player, v trf.Version) error {
	info := make([]trf.PlayerInfo, len(t.Players))
	for i, p := range t.Players {
		info[i] = trfInfo(players[p.ID])
	}
	// Names are data: none may start a record (archive.SafeText).
	tt := *t
	tt.Name, tt.Tiebreaks = archive.SafeText(t.Name), archive.SafeText(t.Tiebreaks)
	tt.Players = slices.Clone(t.Players)
	for i := range tt.Players {
		tt.Players[i].Name = archive.SafeText(tt.Players[i].Name)
	}
	t = &tt
	codes, _ := tiebreak.CodesFor(t) // a column not understood gives the defaults, as the run ranks it
	if err := trf.Write(w, t, info, codes, v); err != nil {
		return fmt.Errorf("tournament %d: %w", t.ID, err)
	}
	return nil
}

// trfInfo is what a 001 record says of a player from the players table. The
// birth date is written whole when known, else as the birth year alone.
func trfInfo(p Player) trf.PlayerInfo {
	pi := trf.PlayerInfo{Sex: archive.SafeText(p.Sex), Title: archive.SafeText(p.Title), Federation: archive.SafeText(p.Federation), FideID: p.FideID}
	switch {
	case !p.BirthDate.IsZero():
		pi.Birth = p.BirthDate.Format("2006/01/02")
	case p.BirthYear > 0:
		pi.Birth = fmt.Sprintf("%04d", p.BirthYear)
	}
	return pi
}
